import FlintCore
import Testing

@Suite("encrypted backups (SealedBackup)")
struct SealedBackupTests {
    let key = MasterKey.generate()

    /// Seals `plaintext` in frames of at most `SealedBackup.frameSize` bytes: the header, then each frame.
    func seal(_ plaintext: [UInt8]) throws -> (header: [UInt8], frames: [[UInt8]]) {
        let (header, start) = try SealedBackup.start(masterKey: key)
        var writer = start
        var frames: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(offset + SealedBackup.frameSize, plaintext.count)
            frames.append(try writer.frame(Array(plaintext[offset..<end]), last: end == plaintext.count))
            offset = end
        } while offset < plaintext.count
        return (header, frames)
    }

    /// Opens a sealed backup fed in pieces of `piece` bytes.
    func open(header: [UInt8], body: [UInt8], with masterKey: MasterKey?, piece: Int = 7_000) throws -> [UInt8] {
        var reader = try SealedBackup.reader(header: header, masterKey: masterKey)
        var out: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + piece, body.count)
            out += try reader.open(Array(body[offset..<end]))
            offset = end
        }
        try reader.finish()
        return out
    }

    @Test("a backup of several frames opens whole with its master key, fed in pieces of any size; its header names the key")
    func roundTrip() throws {
        let plaintext = (0..<(2 * SealedBackup.frameSize + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let (header, frames) = try seal(plaintext)
        #expect(frames.count == 3)
        #expect(SealedBackup.headerLength(header) == header.count)
        #expect(SealedBackup.masterKeyID(header: header) == key.id)
        #expect(try open(header: header, body: frames.flatMap { $0 }, with: key) == plaintext)
        #expect(try open(header: header, body: frames.flatMap { $0 }, with: key, piece: 1 << 22) == plaintext)
        let (emptyHeader, emptyFrames) = try seal([])
        #expect(try open(header: emptyHeader, body: emptyFrames.flatMap { $0 }, with: key) == [])
    }

    @Test("another master key or none is refused by name; frames reordered, dropped, cut or altered do not open")
    func refusals() throws {
        let plaintext = (0..<(SealedBackup.frameSize + 10)).map { UInt8(truncatingIfNeeded: $0) }
        let (header, frames) = try seal(plaintext)
        let other = MasterKey.generate()
        #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: other.id)) { try SealedBackup.reader(header: header, masterKey: other) }
        #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: nil)) { try SealedBackup.reader(header: header, masterKey: nil) }
        #expect(throws: SealedBackup.Failure.damaged(frame: 0)) { try open(header: header, body: frames[1] + frames[0], with: key) }
        #expect(throws: SealedBackup.Failure.truncated) { try open(header: header, body: frames[0], with: key) }
        #expect(throws: SealedBackup.Failure.truncated) { try open(header: header, body: frames[0] + frames[1].dropLast(3), with: key) }
        #expect(throws: SealedBackup.Failure.damaged(frame: 2)) { try open(header: header, body: frames[0] + frames[1] + frames[1], with: key) }
        var altered = frames[0]
        altered[100] ^= 1
        #expect(throws: SealedBackup.Failure.damaged(frame: 0)) { try open(header: header, body: altered + frames[1], with: key) }
        var flagged = frames[0]
        flagged[0] = 1
        #expect(throws: SealedBackup.Failure.damaged(frame: 0)) { try open(header: header, body: flagged, with: key) }
        #expect(throws: SealedBackup.Failure.notEncryptedBackup) {
            try SealedBackup.reader(header: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100), masterKey: key)
        }
    }
}
