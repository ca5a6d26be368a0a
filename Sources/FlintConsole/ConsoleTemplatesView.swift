import FlintCore
import FlintServer
import FlintTexts

/// What the templates page shows: the menus (locale and text), the overview of every locale and text (built-in or
/// overridden), and for the chosen text its editor (each part with whether it is built-in or overridden) and preview.
struct ConsoleTemplatesView {
    let config: ProjectConfig
    /// The chosen text, if any.
    let choice: ConsoleTemplateChoice?
    /// The parts to show in the editor: as submitted (a preview or a refused save), else `nil` for the stored ones.
    var edited: [String: String]? = nil
    /// Refusals by part.
    var errors: [String: String] = [:]
    let appName: String
    let baseURL: String

    /// Every locale with a built-in or overridden text, sorted.
    var locales: [String] {
        var all = Set(EmailTemplates.builtIn.locales).union(SMSTemplates.builtIn.locales)
        for kind in [ConsoleTemplateChoice.Kind.email(.signIn), .sms(.signIn)] {
            all.formUnion(ConsoleTemplateChoice.stored(kind, in: config).keys.compactMap(LocaleNegotiation.canonical))
        }
        return all.sorted()
    }

    /// The template's data, without the preview fragment (``preview``).
    var data: [String: Any] {
        let kinds = ConsoleTemplateChoice.kinds
        var data: [String: Any] = [
            "localeOptions": locales,
            "locale": choice?.locale ?? LocaleNegotiation.fallback,
            "templateOptions": kinds.map { ["value": $0.id, "label": $0.label, "selected": $0 == choice?.kind] as [String: Any] },
            "columns": kinds.map { ["label": $0.label] },
            "rows": locales.map { locale in
                [
                    "locale": locale,
                    "cells": kinds.map { kind -> [String: Any] in
                        let cell = ConsoleTemplateChoice(locale: locale, id: kind.id)
                        let overridden = cell.map { !$0.overrides(in: config).isEmpty } ?? false
                        let state = overridden ? "overridden" : cell?.builtIn == nil ? "English" : "built-in"
                        return ["href": "/console/templates?locale=\(locale)&template=\(kind.id)#editor", "state": state, "overridden": overridden]
                    },
                ] as [String: Any]
            },
        ]
        if let choice { data["editor"] = editor(choice) }
        return data
    }

    /// The editor's data: the text's label, its parts with their values and states, and whether anything is overridden.
    private func editor(_ choice: ConsoleTemplateChoice) -> [String: Any] {
        let stored = choice.overrides(in: config)
        let values = edited ?? choice.effective(in: config)
        let fields: [[String: Any]] = choice.parts.map { part in
            var field: [String: Any] = [
                "name": part, "label": choice.parts.count == 1 ? "Message" : Self.labels[part] ?? part, "value": values[part] ?? "",
                "multiline": part != "subject",
                "rows": part == "html" ? 16 : choice.parts.count == 1 ? 4 : 10,
                "state": stored[part] != nil ? "overridden" : choice.builtIn == nil ? "English built-in" : "built-in",
                "overridden": stored[part] != nil, "resettable": stored[part] != nil && choice.builtIn != nil,
            ]
            if let error = errors[part] { field["error"] = error }
            return field
        }
        let placeholders =
            if case .email = choice.kind { "{app}, {link} (required in both bodies) and {email}" } else { "{code} (required) and {app}" }
        var editor: [String: Any] = [
            "label": choice.kind.label, "locale": choice.locale, "template": choice.kind.id, "fields": fields,
            "overridden": !stored.isEmpty, "placeholders": placeholders,
        ]
        if choice.builtIn == nil {
            editor["note"] = "Flint has no built-in \(choice.locale) text: recipients in \(choice.locale) get the English one until you save it here."
        }
        if case .sms = choice.kind { editor["maxLength"] = SMSTemplates.maxLength }
        return editor
    }

    /// The preview fragment's data for the chosen text (as edited or stored).
    var preview: [String: Any] {
        guard let choice else { return [:] }
        let preview = ConsoleTemplatePreview(choice: choice, parts: edited ?? choice.effective(in: config), appName: appName, baseURL: baseURL)
        var data = preview.data(config: config)
        data["sampleLink"] = preview.sampleLink
        return data
    }

    /// The parts' labels.
    private static let labels = ["subject": "Subject", "text": "Text body", "html": "HTML body"]
}
