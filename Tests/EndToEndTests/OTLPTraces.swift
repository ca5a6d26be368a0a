/// A span as an OTLP/HTTP trace export carries it: IDs in hex, the name, the kind, the attributes (each value as
/// text) and the status code.
struct ExportedSpan: Sendable {
    var traceID = ""
    var spanID = ""
    var parentSpanID = ""
    var name = ""
    /// OTLP's `SpanKind`: 2 server, 3 client.
    var kind = 0
    var attributes: [String: String] = [:]
    /// OTLP's `Status.code`: 0 unset, 1 ok, 2 error.
    var statusCode = 0
    /// The `service.name` of the resource that sent it.
    var serviceName = ""
}

/// Reads the spans of OTLP/HTTP trace exports (`ExportTraceServiceRequest`, protobuf) with a reader of the protobuf
/// wire format written for these tests: only the fields they look at (opentelemetry/proto/trace/v1/trace.proto).
enum OTLPTraces {
    struct Malformed: Error {}

    /// The spans of one export request body.
    static func spans(in body: [UInt8]) throws -> [ExportedSpan] {
        var spans: [ExportedSpan] = []
        for (field, resourceSpans) in try fields(body) where field == 1 {
            let resource = try fields(resourceSpans.bytes)
            var service = ""
            for (field, value) in resource where field == 1 {
                for (key, text) in try attributes(try fields(value.bytes), field: 1) where key == "service.name" { service = text }
            }
            for (field, scopeSpans) in resource where field == 2 {
                for (field, span) in try fields(scopeSpans.bytes) where field == 2 {
                    var decoded = try self.span(span.bytes)
                    decoded.serviceName = service
                    spans.append(decoded)
                }
            }
        }
        return spans
    }

    private static func span(_ bytes: [UInt8]) throws -> ExportedSpan {
        var span = ExportedSpan()
        let all = try fields(bytes)
        for (field, value) in all {
            switch field {
            case 1: span.traceID = hex(value.bytes)
            case 2: span.spanID = hex(value.bytes)
            case 4: span.parentSpanID = hex(value.bytes)
            case 5: span.name = String(decoding: value.bytes, as: UTF8.self)
            case 6: span.kind = Int(value.number)
            case 15:
                for (field, status) in try fields(value.bytes) where field == 3 { span.statusCode = Int(status.number) }
            default: break
            }
        }
        span.attributes = Dictionary(try attributes(all, field: 9), uniquingKeysWith: { _, last in last })
        return span
    }

    /// The `KeyValue`s at `field` of a message's fields (9 in a span, 1 in a resource), values as text.
    private static func attributes(_ fields: [(Int, Value)], field number: Int) throws -> [(String, String)] {
        var out: [(String, String)] = []
        for (field, keyValue) in fields where field == number {
            guard case .bytes = keyValue else { continue }
            var key = ""
            var text = ""
            for (field, part) in try self.fields(keyValue.bytes) {
                if field == 1 { key = String(decoding: part.bytes, as: UTF8.self) }
                if field == 2 {
                    for (kind, any) in try self.fields(part.bytes) {
                        switch (kind, any) {
                        case (1, .bytes(let string)): text = String(decoding: string, as: UTF8.self)
                        case (2, .varint(let flag)): text = flag == 0 ? "false" : "true"
                        case (3, .varint(let number)): text = String(Int64(bitPattern: number))
                        case (4, .fixed64(let bits)): text = String(Double(bitPattern: bits))
                        default: text = hex(any.bytes)
                        }
                    }
                }
            }
            out.append((key, text))
        }
        return out
    }

    /// A field's value on the wire.
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case bytes([UInt8])

        var bytes: [UInt8] {
            if case .bytes(let bytes) = self { return bytes }
            return []
        }

        var number: UInt64 {
            switch self {
            case .varint(let value), .fixed64(let value): value
            case .fixed32(let value): UInt64(value)
            case .bytes: 0
            }
        }
    }

    /// The fields of one message, in order.
    static func fields(_ bytes: [UInt8]) throws -> [(Int, Value)] {
        var out: [(Int, Value)] = []
        var index = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw Malformed()
        }
        func fixed(_ count: Int) throws -> UInt64 {
            guard index + count <= bytes.count else { throw Malformed() }
            var value: UInt64 = 0
            for offset in 0..<count { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
            index += count
            return value
        }
        while index < bytes.count {
            let tag = try varint()
            let field = Int(tag >> 3)
            switch tag & 7 {
            case 0: out.append((field, .varint(try varint())))
            case 1: out.append((field, .fixed64(try fixed(8))))
            case 2:
                let length = Int(try varint())
                guard length >= 0, index + length <= bytes.count else { throw Malformed() }
                out.append((field, .bytes(Array(bytes[index..<(index + length)]))))
                index += length
            case 5: out.append((field, .fixed32(UInt32(try fixed(4)))))
            default: throw Malformed()
            }
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
