// Flint's view of the XML Security Library (xmlsec1, OpenSSL engine) and libxml2, for FlintSAML.
// Plain functions over the library's macros (version check, xmlFree), the hardened parser (any DOCTYPE stops it), and
// raw DEFLATE (zlib) for SAML's HTTP-Redirect binding. Everything here is static inline: the system-library target has
// no sources of its own.
#ifndef FLINT_XMLSEC_H
#define FLINT_XMLSEC_H

// Debian's xmlsec1-openssl.pc passes these as -D flags, which SwiftPM would drop from a system library's pkg-config
// flags (it keeps -I and -l only, with a warning): they are set here instead, as the library was built. They fix
// xmlsec's ABI (xmlSecSize is an unsigned int) and pick the OpenSSL engine, linked directly.
#ifndef XMLSEC_NO_SIZE_T
#define XMLSEC_NO_SIZE_T
#endif
#ifndef XMLSEC_CRYPTO_OPENSSL
#define XMLSEC_CRYPTO_OPENSSL 1
#endif
#ifndef XMLSEC_NO_CRYPTO_DYNAMIC_LOADING
#define XMLSEC_NO_CRYPTO_DYNAMIC_LOADING 1
#endif
#ifndef XMLSEC_OPENSSL3_ENGINES
#define XMLSEC_OPENSSL3_ENGINES 1
#endif
#ifndef XMLSEC_NO_GOST
#define XMLSEC_NO_GOST 1
#endif
#ifndef XMLSEC_NO_GOST2012
#define XMLSEC_NO_GOST2012 1
#endif
#ifndef __XMLSEC_FUNCTION__
#define __XMLSEC_FUNCTION__ __func__
#endif

#include <string.h>
#include <zlib.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <libxml/xmlmemory.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/errors.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/templates.h>
#include <xmlsec/transforms.h>
#include <xmlsec/keys.h>
#include <xmlsec/crypto.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>

/// Initializes libxml2 and xmlsec with its OpenSSL engine. Call it only through FlintSAML's `XMLSecLibrary` (a Swift
/// lazy global: once per process, serialized): a second call re-registers xmlsec's transforms, unsafe while another
/// thread verifies. Returns 0 on success. xmlsec's error output to stderr is turned off: callers report their own errors.
static inline int flint_xmlsec_initialize(void) {
    xmlInitParser();
    if (xmlSecInit() < 0) return -1;
    if (xmlSecCheckVersion() != 1) return -2;
    if (xmlSecOpenSSLAppInit(NULL) < 0) return -3;
    if (xmlSecOpenSSLInit() < 0) return -4;
    xmlSecErrorsDefaultCallbackEnableOutput(0);
    return 0;
}

/// Frees memory that libxml2 allocated (xmlFree is a macro over a per-thread function pointer).
static inline void flint_xml_free(void *pointer) { xmlFree(pointer); }

static inline void flint_xml_refuse_doctype(void *context, const xmlChar *name, const xmlChar *externalID,
                                            const xmlChar *systemID) {
    (void)name; (void)externalID; (void)systemID;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    parser->_private = (void *)1;
    xmlStopParser(parser);
}

/// Parses `length` bytes as a standalone XML document without any DTD: a DOCTYPE declaration (internal or external
/// subset, hence any entity declaration) stops the parser before its content is read, and sets `*sawDoctype` to 1.
/// No network access, no external entity or DTD loading, no entity substitution, no error output. Returns NULL for
/// a document that is not well formed or has a DOCTYPE; the caller frees a returned document with xmlFreeDoc.
static inline xmlDocPtr flint_xml_parse_without_dtd(const char *bytes, int length, int *sawDoctype) {
    *sawDoctype = 0;
    xmlParserCtxtPtr parser = xmlCreateMemoryParserCtxt(bytes, length);
    if (parser == NULL) return NULL;
    parser->sax->internalSubset = flint_xml_refuse_doctype;
    parser->sax->externalSubset = flint_xml_refuse_doctype;
    parser->_private = NULL;
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlParseDocument(parser);
    xmlDocPtr document = parser->myDoc;
    parser->myDoc = NULL;
    int refused = parser->_private != NULL;
    int wellFormed = parser->wellFormed;
    xmlFreeParserCtxt(parser);
    if (refused || !wellFormed || document == NULL || document->intSubset != NULL || document->extSubset != NULL) {
        if (refused || (document != NULL && (document->intSubset != NULL || document->extSubset != NULL))) {
            *sawDoctype = 1;
        }
        if (document != NULL) xmlFreeDoc(document);
        return NULL;
    }
    return document;
}

/// Compresses `length` bytes with raw DEFLATE (RFC 1951, no zlib header), as SAML's HTTP-Redirect binding wants.
/// Writes at most `capacity` bytes to `output`; returns the compressed length, or -1 if it did not fit or failed.
static inline long flint_raw_deflate(const unsigned char *input, size_t length, unsigned char *output,
                                     size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}

/// Inflates raw DEFLATE (the HTTP-Redirect binding's SAMLRequest) into `output`; returns the length or -1.
static inline long flint_raw_inflate(const unsigned char *input, size_t length, unsigned char *output,
                                     size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -15) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}

/// Loads the public key of one PEM certificate as an xmlsec key (the caller owns it: xmlSecKeyDestroy, or hand it
/// to a signature context's signKey, which destroys it). NULL if the text is not a PEM certificate.
static inline xmlSecKeyPtr flint_xmlsec_key_from_certificate_pem(const unsigned char *pem, size_t length) {
    return xmlSecOpenSSLAppKeyLoadMemory(pem, (xmlSecSize)length, xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
}

/// Loads a PEM private key (PKCS#1 or PKCS#8, unencrypted) as an xmlsec key; NULL if it is not one.
static inline xmlSecKeyPtr flint_xmlsec_key_from_private_key_pem(const unsigned char *pem, size_t length) {
    return xmlSecOpenSSLAppKeyLoadMemory(pem, (xmlSecSize)length, xmlSecKeyDataFormatPem, NULL, NULL, NULL);
}

#endif
