import FlintCore
import FlintStore
import FlintTexts

extension OobCodeKind {
    /// The kind of code an action's email carries.
    init(_ action: EmailAction) { self.init(rawValue: action.rawValue) }
}
