import Foundation

/// Asks questions on standard output and reads the answers from standard input, line by line.
struct Prompt: Sendable {
    /// Reads one line; `nil` at the end of input. Tests pass their own.
    var readLine: @Sendable () -> String? = { Swift.readLine(strippingNewline: true) }
    var write: @Sendable (String) -> Void = { text in
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Asks `question` until a non-empty answer arrives (trimmed).
    /// - Throws: `EndOfInput` when the input ends first.
    func ask(_ question: String) throws(EndOfInput) -> String {
        while true {
            write(question + " ")
            guard let line = readLine() else {
                write("\n")
                throw EndOfInput()
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if !answer.isEmpty { return answer }
        }
    }
}

/// Standard input ended before an answer.
struct EndOfInput: Error, Equatable {}
