// How streaming JSON grows inside a block: tool input and structured text.
//
// Each delta's bytes go once into the block's incremental parser; the block
// then holds the parser's partial value (O(depth) to take). Nothing is ever
// re-parsed from the start. Input that turns out not to be JSON records the
// error on the block and stops parsing; the raw text keeps growing.

import IncrementalJSON

extension ToolUseBlock {
    mutating func feedInput(
        _ payload: UnsafeBufferPointer<UInt8>, parser: inout IncrementalJSONParser?, options: JSONParserOptions
    ) {
        inputJSON.append(utf8: payload)
        guard inputError == nil, payload.count > 0 else { return }
        var active = parser ?? IncrementalJSONParser(options: options)
        do throws(JSONParseError) {
            try active.feed(UnsafeRawBufferPointer(payload))
            if let value = active.value { input = value }
            parser = active
        } catch {
            inputError = error
            parser = nil
        }
    }

    mutating func finishInput(parser: inout IncrementalJSONParser?) {
        guard inputError == nil, !inputJSON.isEmpty else { return }
        var active = parser ?? IncrementalJSONParser()
        do throws(JSONParseError) {
            input = try active.finish()
        } catch {
            inputError = error
        }
        parser = nil
    }
}

extension TextBlock {
    mutating func feedStructured(
        _ payload: UnsafeBufferPointer<UInt8>, parser: inout IncrementalJSONParser?, options: JSONParserOptions
    ) {
        guard structuredError == nil, payload.count > 0 else { return }
        var active = parser ?? IncrementalJSONParser(options: options)
        do throws(JSONParseError) {
            try active.feed(UnsafeRawBufferPointer(payload))
            structuredValue = active.value
            parser = active
        } catch {
            structuredError = error
            parser = nil
        }
    }

    mutating func finishStructured(parser: inout IncrementalJSONParser?) {
        guard structuredError == nil, var active = parser else { return }
        do throws(JSONParseError) {
            structuredValue = try active.finish()
        } catch {
            structuredError = error
        }
        parser = nil
    }
}

extension ContentBlock {
    /// Marks the block stopped, finishing any JSON it was parsing.
    mutating func markComplete(finishing parser: inout IncrementalJSONParser?) {
        switch self {
        case .text(var b):
            b.finishStructured(parser: &parser)
            b.isComplete = true
            self = .text(b)
        case .thinking(var b):
            b.isComplete = true
            self = .thinking(b)
        case .toolUse(var b):
            b.finishInput(parser: &parser)
            b.isComplete = true
            self = .toolUse(b)
        case .toolResult(var b):
            b.isComplete = true
            self = .toolResult(b)
        case .compaction(var b):
            b.isComplete = true
            self = .compaction(b)
        case .fallback(var b):
            b.isComplete = true
            self = .fallback(b)
        case .redactedThinking(var b):
            b.isComplete = true
            self = .redactedThinking(b)
        case .containerUpload(var b):
            b.isComplete = true
            self = .containerUpload(b)
        case .unknown(var b):
            b.isComplete = true
            self = .unknown(b)
        }
    }
}
