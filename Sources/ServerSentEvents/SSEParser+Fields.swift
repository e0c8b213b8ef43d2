// Interpreting one line (WHATWG "process the field") and dispatching.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The fields the algorithm acts on; anything else is ignored.
enum Field {
    case data, event, id, retry, ignored
}

/// Splits a line into its field and the start of its value: up to the first
/// colon is the name (the whole line when there is none), then one leading
/// space of the value is skipped. A line starting with a colon is a comment.
@inline(__always)
func classify(_ line: UnsafeRawBufferPointer) -> (field: Field, valueStart: Int) {
    let count = line.count
    guard let base = line.baseAddress, count > 0, line[0] != 0x3A else { return (.ignored, count) }
    // Names are at most 5 bytes: look for the colon there first, so that a
    // long line without a known name is never scanned to its end.
    var colon = count
    var i = 0
    while i < count && i < 6 {
        if line[i] == 0x3A {
            colon = i
            break
        }
        i += 1
    }
    if colon == count && count > 6 {
        // No known name (those are short), but an unknown one is still a
        // field: the value is ignored either way.
        return (.ignored, count)
    }
    var valueStart = colon
    if colon < count {
        valueStart = colon + 1
        if valueStart < count && line[valueStart] == 0x20 { valueStart += 1 }
    }
    let field: Field
    switch colon {
    case 4:
        field = base.loadUnaligned(as: UInt32.self) == fourBytes("d", "a", "t", "a") ? .data : .ignored
    case 5:
        let head = base.loadUnaligned(as: UInt32.self)
        let last = line[4]
        if head == fourBytes("e", "v", "e", "n") && last == UInt8(ascii: "t") {
            field = .event
        } else if head == fourBytes("r", "e", "t", "r") && last == UInt8(ascii: "y") {
            field = .retry
        } else {
            field = .ignored
        }
    case 2:
        field = line[0] == UInt8(ascii: "i") && line[1] == UInt8(ascii: "d") ? .id : .ignored
    default:
        field = .ignored
    }
    return (field, valueStart)
}

@inline(__always)
private func fourBytes(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar) -> UInt32 {
    // Memory order a b c d, read as one native-endian word.
    let bytes = UInt32(UInt8(ascii: a)) | UInt32(UInt8(ascii: b)) << 8 | UInt32(UInt8(ascii: c)) << 16 | UInt32(UInt8(ascii: d)) << 24
    return UInt32(littleEndian: bytes)
}

extension SSEParser {
    /// A whole line inside the current chunk: values stay borrowed from it.
    @inline(__always)
    mutating func chunkLine(
        _ chunk: UnsafeRawBufferPointer, start: Int, end: Int, chunkOffset: Int,
        _ onEvent: (borrowing SSEEventView) -> Void
    ) throws(SSEError) {
        if start == end {
            dispatch(chunk, lineEndOffset: chunkOffset + end, onEvent)
            return
        }
        if end - start > activeLimits.maxLineBytes {
            throw SSEError(reason: .lineTooLong(limit: activeLimits.maxLineBytes), offset: chunkOffset + start + activeLimits.maxLineBytes)
        }
        if blockStartOffset < 0 { blockStartOffset = chunkOffset + start }
        let line = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
        let (field, valueStart) = classify(line)
        let value = (start + valueStart)..<end
        switch field {
        case .data:
            try checkDataLimit(adding: value.count, valueOffset: chunkOffset + value.lowerBound)
            if dataField.lineCount == 0 {
                dataField.setBorrowed(value)
            } else {
                dataField.appendLine(chunkBytes(chunk, value), chunk: chunk)
            }
        case .event:
            eventTypeField.setBorrowed(value)
        case .id:
            setID(chunkBytes(chunk, value))
        case .retry:
            setRetry(chunkBytes(chunk, value))
        case .ignored:
            break
        }
    }

    /// The line assembled in `lineBuffer` (never empty) has ended.
    mutating func bufferedLine(_ chunk: UnsafeRawBufferPointer, lineEndOffset: Int) throws(SSEError) {
        if blockStartOffset < 0 { blockStartOffset = lineStartOffset }
        let (field, valueStart) = lineBuffer.withUnsafeBytes { classify($0) }
        switch field {
        case .data:
            try checkDataLimit(adding: lineBuffer.count - valueStart, valueOffset: lineStartOffset + valueStart)
            if dataField.lineCount == 0 {
                dataField.adoptFirstLine(&lineBuffer, start: valueStart)
            } else {
                lineBuffer.withUnsafeBufferPointer { line in
                    dataField.appendLine(UnsafeBufferPointer(rebasing: line[valueStart...]), chunk: chunk)
                }
            }
        case .event:
            lineBuffer.withUnsafeBufferPointer { line in
                eventTypeField.setCopy(UnsafeBufferPointer(rebasing: line[valueStart...]))
            }
        case .id:
            lineBuffer.withUnsafeBufferPointer { line in
                setID(UnsafeBufferPointer(rebasing: line[valueStart...]))
            }
        case .retry:
            lineBuffer.withUnsafeBufferPointer { line in
                setRetry(UnsafeBufferPointer(rebasing: line[valueStart...]))
            }
        case .ignored:
            break
        }
        lineBuffer.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func checkDataLimit(adding count: Int, valueOffset: Int) throws(SSEError) {
        let before = dataField.lineCount == 0 ? 0 : dataField.byteCount + 1
        if before + count > activeLimits.maxEventBytes {
            throw SSEError(
                reason: .eventTooLarge(limit: activeLimits.maxEventBytes),
                offset: valueOffset + max(0, activeLimits.maxEventBytes - before))
        }
    }

    /// `id`: ignored when it contains NUL; otherwise it becomes the last
    /// event ID at once (an empty value resets it).
    @inline(__always)
    mutating func setID(_ value: UnsafeBufferPointer<UInt8>) {
        if let base = value.baseAddress, memchr(base, 0, value.count) != nil { return }
        lastEventIDBytes.removeAll(keepingCapacity: true)
        lastEventIDBytes.append(contentsOf: value)
    }

    /// `retry`: only a non-empty run of ASCII digits counts (saturating at
    /// `Int.max` rather than rejecting a huge value).
    @inline(__always)
    mutating func setRetry(_ value: UnsafeBufferPointer<UInt8>) {
        guard !value.isEmpty else { return }
        var result = 0
        var saturated = false
        for byte in value {
            let digit = Int(byte) &- 0x30
            guard digit >= 0 && digit <= 9 else { return }
            if !saturated {
                let (times10, o1) = result.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                if o1 || o2 {
                    saturated = true
                    result = Int.max
                } else {
                    result = sum
                }
            }
        }
        pendingRetry = result
    }

    /// A blank line: dispatch the block's event if it has data, then start a
    /// new block either way.
    @inline(__always)
    mutating func dispatch(
        _ chunk: UnsafeRawBufferPointer, lineEndOffset: Int,
        _ onEvent: (borrowing SSEEventView) -> Void
    ) {
        if dataField.lineCount > 0 {
            let retry = pendingRetry
            let hasType = eventTypeField.byteCount > 0
            if let dataRange = dataField.borrowed, lastEventIDBytes.isEmpty, !hasType || eventTypeField.borrowed != nil {
                // The usual event: every value still in the chunk and no
                // event ID. Built from the chunk alone, no buffer's storage
                // is touched (reading each through `withUnsafeBytes` cost a
                // retain and a release of each array per event).
                let type = eventTypeField.borrowed.map { UnsafeRawBufferPointer(rebasing: chunk[$0]) }
                onEvent(
                    SSEEventView(
                        data: UnsafeRawBufferPointer(rebasing: chunk[dataRange]), eventType: hasType ? type : nil,
                        lastEventID: UnsafeRawBufferPointer(start: nil, count: 0), retry: retry, streamOffset: lineEndOffset))
                dataField.clear()
                if eventTypeField.lineCount > 0 { eventTypeField.clear() }
                pendingRetry = nil
                blockStartOffset = -1
                return
            }
            dataField.withBytes(chunk) { data in
                eventTypeField.withBytes(chunk) { type in
                    lastEventIDBytes.withUnsafeBytes { id in
                        onEvent(
                            SSEEventView(
                                data: data, eventType: hasType ? type : nil, lastEventID: id,
                                retry: retry, streamOffset: lineEndOffset))
                    }
                }
            }
            dataField.clear()
        }
        if eventTypeField.lineCount > 0 { eventTypeField.clear() }
        pendingRetry = nil
        blockStartOffset = -1
    }
}
