import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The encrypted form of a backup (`flint backup --encrypt`), written and read a frame at a time, so a database of
/// any size passes through a few MiB of memory.
///
/// Layout: ``magic``; a 4-byte big-endian length and the backup's own random 256-bit file key, sealed with the
/// master key (``SealedSecret``, named `backup-file-key`: the master key's wrap, whose header names the key a restore
/// needs); then frames, each a flag byte (1 on the last frame, else 0), a 4-byte big-endian length and an AES-256-GCM
/// box (nonce ‖ ciphertext ‖ tag) of at most ``frameSize`` bytes of the file, under the file key, whose associated
/// data names the frame's position and flag. A frame moved, dropped, repeated or flagged last out of place does not
/// open, nor does a file cut short after any frame but the last.
package enum SealedBackup {
    /// The first bytes of an encrypted backup.
    package static let magic = Array("FLINT-BACKUP-v1\n".utf8)
    /// The most plaintext bytes one frame holds.
    package static let frameSize = 1 << 20
    /// The name the file key is sealed under.
    static let keyName = "backup-file-key"
    /// The largest sealed box a reader accepts: a frame's plaintext, nonce and tag.
    static let largestBox = frameSize + 12 + 16

    /// Why an encrypted backup cannot be read; `description` says what is wrong.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// The bytes do not start as an encrypted backup does.
        case notEncryptedBackup
        /// A frame does not open, or frames are missing after it: the file was altered or cut short.
        case damaged(frame: Int)
        /// The file ends before its last frame.
        case truncated

        package var description: String {
            switch self {
            case .notEncryptedBackup: "not an encrypted Flint backup"
            case .damaged(let frame): "the encrypted backup is damaged: frame \(frame) does not open"
            case .truncated: "the encrypted backup is cut short: its last frame is missing"
            }
        }
    }

    /// Starts sealing a backup with `masterKey`: the header to write first, and the writer of its frames.
    package static func start(masterKey: MasterKey, random: any RandomSource = SystemRandom()) throws -> (header: [UInt8], writer: Writer) {
        let fileKey = random.bytes(32)
        let wrapped = Array(try SealedSecret.seal(fileKey, name: keyName, with: masterKey).utf8)
        return (magic + bigEndian(UInt32(wrapped.count)) + wrapped, Writer(key: SymmetricKey(data: fileKey)))
    }

    /// The ID of the master key a backup's header names, from its first bytes (`nil` when they are not an encrypted
    /// backup's, or too few).
    package static func masterKeyID(header: [UInt8]) -> String? {
        guard let text = wrappedKeyText(header) else { return nil }
        return SealedSecret.keyID(of: text)
    }

    /// The number of bytes the header takes, once `prefix` holds at least its length field (`nil` before, or when
    /// the bytes are not an encrypted backup's).
    package static func headerLength(_ prefix: [UInt8]) -> Int? {
        guard prefix.count >= magic.count + 4, Array(prefix.prefix(magic.count)) == magic else { return nil }
        let length = Int(readBigEndian(prefix, at: magic.count))
        guard length <= 4096 else { return nil }
        return magic.count + 4 + length
    }

    /// Opens a backup's header (as long as ``headerLength(_:)`` says) with `masterKey`.
    /// - Throws: ``Failure/notEncryptedBackup`` for other bytes; ``MasterKeyError`` when the backup was sealed with
    ///   another master key (or none is given) or its key does not open.
    package static func reader(header: [UInt8], masterKey: MasterKey?) throws -> Reader {
        guard let text = wrappedKeyText(header) else { throw Failure.notEncryptedBackup }
        let fileKey = try SealedSecret.open(text, name: keyName, with: masterKey)
        guard fileKey.count == 32 else { throw MasterKeyError.damaged(keyName) }
        return Reader(key: SymmetricKey(data: fileKey))
    }

    /// Seals a backup's frames in order.
    package struct Writer: Sendable {
        let key: SymmetricKey
        private var index = 0

        init(key: SymmetricKey) { self.key = key }

        /// The frame holding `plaintext` (at most ``SealedBackup/frameSize`` bytes), the backup's last when `last`.
        package mutating func frame(_ plaintext: [UInt8], last: Bool) throws -> [UInt8] {
            precondition(plaintext.count <= SealedBackup.frameSize, "a frame holds at most frameSize bytes")
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: SealedBackup.frameData(index: index, last: last))
            guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
            index += 1
            return [last ? 1 : 0] + SealedBackup.bigEndian(UInt32(combined.count)) + Array(combined)
        }
    }

    /// Opens a backup's frames in order, fed the bytes after the header in pieces of any size.
    package struct Reader: Sendable {
        let key: SymmetricKey
        private var index = 0
        private var pending: [UInt8] = []
        private var ended = false

        init(key: SymmetricKey) { self.key = key }

        /// The plaintext of the frames `bytes` completes.
        /// - Throws: ``Failure/damaged(frame:)`` when a frame does not open or bytes follow the last frame.
        package mutating func open(_ bytes: [UInt8]) throws -> [UInt8] {
            pending += bytes
            var out: [UInt8] = []
            var start = 0
            while pending.count - start >= 5 {
                guard !ended else { throw Failure.damaged(frame: index) }
                let length = Int(SealedBackup.readBigEndian(pending, at: start + 1))
                guard length <= SealedBackup.largestBox else { throw Failure.damaged(frame: index) }
                guard pending.count - start >= 5 + length else { break }
                let flag = pending[start]
                guard flag <= 1, let box = try? AES.GCM.SealedBox(combined: pending[(start + 5)..<(start + 5 + length)]),
                    let plain = try? AES.GCM.open(box, using: key, authenticating: SealedBackup.frameData(index: index, last: flag == 1))
                else { throw Failure.damaged(frame: index) }
                out += plain
                index += 1
                ended = flag == 1
                start += 5 + length
            }
            pending.removeFirst(start)
            return out
        }

        /// Checks the backup ended where its last frame says.
        /// - Throws: ``Failure/truncated`` when it did not.
        package func finish() throws {
            guard ended, pending.isEmpty else { throw Failure.truncated }
        }
    }

    /// The associated data of frame `index`.
    static func frameData(index: Int, last: Bool) -> [UInt8] {
        Array("flint-backup-frame:\(index)\(last ? ":last" : "")".utf8)
    }

    private static func wrappedKeyText(_ header: [UInt8]) -> String? {
        guard let length = headerLength(header), header.count >= length else { return nil }
        return String(decoding: header[(magic.count + 4)..<length], as: UTF8.self)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func readBigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { ($0 << 8) | UInt32(bytes[offset + $1]) }
    }
}
