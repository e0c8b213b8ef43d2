// One exchange of `chat`: requests, tool rounds, output, and the transcript
// saved after every complete round (a response and, for a tool round, all
// its results), so an interrupted run keeps what was finished.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ChatRun: Sendable {
    let options: ChatOptions
    let configuration: ClientConfiguration
    let tools: ShellToolSettings
    let deadline: ContinuousClock.Instant?

    /// `exchange` stopped at --timeout or by SIGINT/SIGTERM, with the
    /// conversation as last saved.
    func interruptible(_ conversation: ChatConversation, prompt: String?) async -> (status: Int32, conversation: ChatConversation) {
        let run = self
        let (outcome, reason) = await RunInterruption.run(deadline: deadline) {
            await run.exchange(conversation, prompt: prompt)
        }
        switch reason {
        case .timeout?:
            CLIOutput.standardError("chat: --timeout \(options.timeout.map { "\($0)" } ?? "") s reached; the run was stopped")
        case .signal(let number)?:
            CLIOutput.standardError("chat: stopped by signal \(number); the transcript keeps the completed rounds")
        case nil:
            break
        }
        // A transcript that could not be written wins: the conversation is not saved.
        if outcome.status == 73 { return outcome }
        return (reason?.status ?? outcome.status, outcome.conversation)
    }

    /// Sends `prompt` (nil: the conversation as it is) and runs the loop.
    func exchange(_ start: ChatConversation, prompt: String?) async -> (status: Int32, conversation: ChatConversation) {
        var conversation = start
        // The state after the last complete round: what the transcript keeps.
        var committed = conversation
        var user = await answers(conversation.unansweredToolCalls)
        if Task.isCancelled { return (3, committed) }
        if let prompt { user.append(.object([("type", .string("text")), ("text", .string(prompt))])) }
        conversation.appendUser(user)
        if prompt == nil, !user.isEmpty {
            committed = conversation
            if let failed = save(committed) { return (failed, committed) }
        }

        var requests = 0
        while true {
            requests += 1
            let outcome = await send(conversation)
            guard case .success(let message) = outcome else {
                if case .failure(let status) = outcome { return (status, committed) }
                return (3, committed)
            }
            conversation.appendResponse(message)
            switch message.stopReason {
            case "tool_use":
                let calls = message.content.compactMap { block -> ToolUseBlock? in
                    if case .toolUse(let call) = block, call.kind == .toolUse { return call }
                    return nil
                }
                guard !calls.isEmpty, calls.allSatisfy({ options.toolCommand($0.name) != nil }) else {
                    return (save(conversation) ?? 0, conversation)
                }
                if requests >= options.maxTurns {
                    CLIOutput.standardError("chat: stopped after \(requests) requests (--max-turns) with \(calls.count) tool call(s) pending")
                    return (save(conversation) ?? 4, conversation)
                }
                let results = await run(calls.map(PendingCall.init))
                if Task.isCancelled { return (3, committed) }
                conversation.appendUser(results)
                committed = conversation
                if let failed = save(committed) { return (failed, committed) }
            case "pause_turn":
                committed = conversation
                if let failed = save(committed) { return (failed, committed) }
                if requests >= options.maxTurns {
                    CLIOutput.standardError("chat: stopped after \(requests) requests (--max-turns) at pause_turn; the answer is unfinished")
                    return (4, conversation)
                }
            default:
                return (save(conversation) ?? 0, conversation)
            }
        }
    }

    /// A call to answer: its id, name, input, and why it must not run.
    struct PendingCall: Sendable {
        var id: String
        var name: String
        var input: JSONValue
        var problem: String?

        init(_ call: ToolUseBlock) {
            id = call.id
            name = call.name
            input = call.input
            if let error = call.inputError {
                problem = "the input is not valid JSON (\(error))"
            } else if !call.isComplete || !call.input.isComplete {
                problem = "the input was cut off before it was complete"
            }
        }

        init(_ block: JSONValue) {
            id = block["id"]?.stringValue ?? ""
            name = block["name"]?.stringValue ?? ""
            input = block["input"] ?? .object([])
        }
    }

    /// Results for calls left unanswered by an earlier run.
    func answers(_ calls: [JSONValue]) async -> [JSONValue] {
        await run(calls.map(PendingCall.init))
    }

    /// The `tool_result` blocks of `calls`, in their order; the commands run
    /// concurrently, --tool-concurrency at a time.
    func run(_ calls: [PendingCall]) async -> [JSONValue] {
        let options = self.options, tools = self.tools
        return await withTaskGroup(of: (Int, JSONValue).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask {
                    (index, await Self.result(call, options: options, tools: tools))
                }
            }
            var results = [JSONValue?](repeating: nil, count: calls.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    static func result(_ call: PendingCall, options: ChatOptions, tools: ShellToolSettings) async -> JSONValue {
        func block(_ content: JSONValue, isError: Bool) -> JSONValue {
            var fields: [(String, JSONValue)] = [("type", .string("tool_result")), ("tool_use_id", .string(call.id)), ("content", content)]
            if isError { fields.append(("is_error", .bool(true))) }
            return .object(fields)
        }
        if let problem = call.problem { return block(.string("\(problem); the tool did not run"), isError: true) }
        guard let command = options.toolCommand(call.name) else {
            return block(.string("no command was given for tool '\(call.name)'; it did not run"), isError: true)
        }
        let tool = ShellTool(name: call.name, command: command.command, outputIsJSON: command.json, settings: tools)
        let result = await tool.run(id: call.id, input: call.input)
        return block(result.content, isError: result.isError)
    }

    enum Outcome {
        case success(MessageSnapshot)
        case failure(Int32)
    }

    /// Streams one request, rendering it; the final message or the exit status.
    func send(_ conversation: ChatConversation) async -> Outcome {
        var configuration = self.configuration
        if let deadline {
            // Cancellation at the deadline stops the run; this also bounds the request itself.
            let left = deadline - ContinuousClock.now
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            guard seconds > 0 else { return .failure(3) }
            configuration.overallTimeout = seconds
        }
        let client = MessagesClient(configuration: configuration)
        var renderer = SnapshotRenderer(isTerminal: isatty(1) == 1)
        var last: MessageSnapshot?
        do throws(TransportError) {
            for try await snapshot in try client.stream(encoded: EncodedRequest(rawBody: conversation.body)) {
                last = snapshot
                if !options.finalJSON { renderer.render(snapshot) }
            }
            guard let last else {
                CLIOutput.standardError("chat: the stream ended without a message")
                return .failure(3)
            }
            if options.finalJSON { CLIOutput.standardOutput(last.messageJSON().compactJSON) } else { renderer.finish(last) }
            return .success(last)
        } catch {
            if let partial = error.snapshot ?? last {
                if options.finalJSON { CLIOutput.standardOutput(partial.messageJSON().compactJSON) } else { renderer.finish(partial, note: "incomplete") }
            }
            if case .cancelled = error {} else { CLIOutput.standardError("chat: \(error)") }
            return .failure(ChatCommand.exitStatus(for: error))
        }
    }

    /// Writes the transcript; nil when it is saved (or there is none), else 73.
    func save(_ conversation: ChatConversation) -> Int32? {
        guard let path = options.transcriptPath else { return nil }
        do throws(TranscriptFile.Failure) { try TranscriptFile.write(conversation.body, to: path) } catch {
            CLIOutput.standardError("chat: \(error.message)")
            return error.status
        }
        return nil
    }
}
