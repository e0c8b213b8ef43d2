// `claude-stream chat [PROMPT]`: a streamed conversation, with client tools
// run as shell commands, carried across runs in a transcript file. The key
// comes from ANTHROPIC_API_KEY (with --bedrock from AWS_BEARER_TOKEN_BEDROCK,
// with --vertex from CLOUDSDK_AUTH_ACCESS_TOKEN) and is never printed nor
// given to a tool. A shell over ClaudeSession: flags, setup, the session's
// stream rendered (ChatRun), an exit status (the table in `usage`).

import ClaudeSession
import ClaudeShellTools
import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ChatCommand {
    static let usage = """
        usage: claude-stream chat [PROMPT] [options]
        A streamed conversation with Claude; client tools run as shell commands. With no PROMPT and
        a terminal on stdin: an interactive chat (an empty line ends it); else the prompt is stdin.

        The request
          --model ID             model (default claude-opus-5); on a cloud its ID or a first-party one, mapped
          --system TEXT          the system prompt
          --max-tokens N         max_tokens (default 4096; 1 to 1048576)
          --effort LEVEL         output_config.effort: low, medium, high, xhigh or max, if the model accepts it
          --schema FILE          structured output: the answer follows the JSON schema in FILE
          --search               adds the web search server tool
          --request FILE         a Messages API request body to start from (fields chat does not know are sent
                                 as given; `messages` is the history to continue)
          --base-url URL         another host (a proxy, a test server)
          --bedrock REGION       Amazon Bedrock; key from AWS_BEARER_TOKEN_BEDROCK
          --vertex PROJECT/REGION  Google Vertex AI; token from CLOUDSDK_AUTH_ACCESS_TOKEN
                                 (e.g. $(gcloud auth print-access-token))
        Tools
          --tool NAME=COMMAND    a client tool run as `/bin/sh -c COMMAND`: the call's input JSON on stdin,
                                 CLAUDE_TOOL_USE_ID and CLAUDE_TOOL_NAME in its environment (no credential);
                                 stdout (one trailing newline dropped) is the result. It declares the tool:
                                 its definition comes from --tools when that names it, else it takes any
                                 JSON object. A non-zero exit sends its status and the end of its stderr
                                 as an error result.
          --tool-json NAME=COMMAND  the same, stdout is one JSON value: a string or an array of content
                                 blocks is the result itself, any other value is sent as its JSON text
          --tools FILE           a JSON array of tool definitions, as the API takes them:
                                 [{"name":"get","description":"…","input_schema":{"type":"object",…}}, …]
                                 (server tools such as {"type":"text_editor_20250728","name":…} too)
          --tool-choice MODE     auto, any, none or tool:NAME (NAME must be declared)
          --tool-timeout SECONDS a tool's process group gets SIGTERM then SIGKILL after this (default 120)
          --tool-concurrency N   tool processes at once (default 4, at most 64); calls past it wait
          --tool-output-limit BYTES  the most text one tool result sends (default 1048576, at most 8388608):
                                 longer output is cut and says so; output that is not UTF-8 text (a NUL byte,
                                 invalid UTF-8) is sent as a line giving its size
          --max-turns N          requests one prompt may make (default 10; 1 to 1000)
          --retries N            retries of a request that failed (408, 409, 429, 5xx, a lost connection) or
                                 whose stream broke (the round is sent again), each said on stderr
                                 (default 2; 0 turns them off; at most 100)
        The run
          --transcript FILE      the conversation, read at the start and saved after every complete round
                                 (an API request body; created 0600, mode and symlinks kept)
          --final-json           print each final message as one JSON line instead of rendering it
          --timeout SECONDS      bound on the whole run, tools and retries included

        Exit codes
          0    the conversation stopped normally (also at a called tool that has no command)
          1    a protocol error or an `error` event mid-stream
          2    the request failed before the stream (HTTP error, missing key, network)
          3    a response ended early (stream cut, connection lost, --timeout); the partial message is shown
          4    stopped at --max-turns with tool calls pending or at pause_turn (the answer is unfinished)
          64   bad usage, or a request the API would refuse (checked before anything is sent)
          65   an input file or the transcript is not valid (the transcript is then left as it is)
          66   an input file cannot be read
          73   the transcript cannot be written
          130  stopped by SIGINT (143 by SIGTERM); the transcript keeps the completed rounds
        """

    static func run(_ arguments: [String]) async -> Int32 {
        // First of all: the credentials leave the process environment (and the
        // bytes /proc shows), so no tool can find them there.
        let environment = CredentialEnvironment.capture()
        let options: ChatOptions
        do throws(ChatUsageError) { options = try ChatOptions.parse(arguments) } catch {
            CLIOutput.standardError("chat: \(error.message)\n" + usage)
            return 64
        }
        // A reader of our stdout that goes away (`chat … | head -1`) must not
        // kill us with SIGPIPE halfway through saving the transcript; tools'
        // pipes need nothing (ClaudeShellTools writes them without SIGPIPE).
        signal(SIGPIPE, SIG_IGN)
        ToolReaper.becomeSubreaper()
        let transcript: SessionTranscript
        let configuration: ClientConfiguration
        // One deadline for the whole run: every prompt, tool and retry.
        let deadline = options.timeout.map { ContinuousClock.now + .seconds($0) }
        do throws(ChatSetupFailure) {
            transcript = try ChatSetup.transcript(options)
            configuration = try ChatSetup.client(options, environment: environment, deadline: deadline)
        } catch {
            CLIOutput.standardError("chat: \(error.message)")
            return error.status
        }
        let saver = TranscriptSaver(path: options.transcriptPath)
        let session = makeSession(options, transcript: transcript, environment: environment, configuration: configuration, saver: saver)
        if let problem = refusal(session, prompt: options.prompt) {
            CLIOutput.standardError("chat: the request would be refused: \(problem)")
            return 64
        }
        if !transcript.pendingToolCalls.isEmpty, options.prompt != nil || isatty(0) == 1 {
            CLIOutput.standardError("chat: \(transcript.pendingToolCalls.count) tool call(s) left pending in the transcript are answered as not run")
        }
        let run = ChatRun(options: options, session: session, saver: saver, deadline: deadline)

        if let prompt = options.prompt { return await run.interruptible(prompt).status }
        if isatty(0) == 1 {
            var last: (status: Int32, stopped: Bool) = (0, false)
            while !last.stopped, RunInterruption.signalReceived == nil {
                CLIOutput.standardError("> ")
                guard let line = readLine(), !line.isEmpty else { break }
                last = await run.interruptible(line)
            }
            return last.status
        }
        if !transcript.pendingToolCalls.isEmpty || transcript.messages.last?.role == .user {
            return await run.interruptible(nil).status
        }
        // Read like every other input (again after a signal interrupts a
        // read; Foundation's readDataToEndOfFile traps on that).
        var bytes: [UInt8] = []
        do throws(InputError) {
            var stdin = try StreamInput.open(nil)
            try stdin.readPieces { piece in
                bytes.append(contentsOf: piece)
                return true
            }
        } catch {
            CLIOutput.standardError("chat: \(error.message)")
            return error.exitCode
        }
        let input = String(decoding: bytes, as: UTF8.self)
        guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            CLIOutput.standardError("chat: missing PROMPT (and nothing on stdin)\n" + usage)
            return 64
        }
        return await run.interruptible(input).status
    }

    /// The session: the transcript, the shell tools, the loop's limits and
    /// hooks (stop at a call of a tool without a command or after a failed
    /// save; save after every complete round).
    static func makeSession(
        _ options: ChatOptions, transcript: SessionTranscript, environment: [String: String],
        configuration: ClientConfiguration, saver: TranscriptSaver
    ) -> ClaudeSession {
        let toolOptions = ShellToolOptions(
            environment: environment,
            limits: ShellToolLimits(timeout: .milliseconds(Int64(options.toolTimeout * 1000)), maxResultBytes: options.toolOutputLimit))
        let tools: [any ClientTool] = options.toolCommands.map {
            ShellTool(name: $0.name, command: $0.command, outputIsJSON: $0.json, options: toolOptions)
        }
        var sessionConfiguration = SessionConfiguration(
            maxTurns: options.maxTurns, pendingCalls: .answerAsNotRun, maxConcurrentTools: options.toolConcurrency,
            onToolCalls: { round in
                if saver.status != nil { return .stop }
                return round.calls.allSatisfy { options.toolCommand($0.name) != nil } ? .run : .stop
            },
            onRoundCompleted: { round in saver.save(round.transcript) })
        sessionConfiguration.maxToolResultBytes = options.toolOutputLimit
        return ClaudeSession(
            transcript: transcript, tools: tools, configuration: sessionConfiguration,
            transport: MessagesClient(configuration: configuration))
    }

    /// Why the library would refuse the next request, checked before any
    /// traffic (effort, model capabilities, tool_choice, tool pairing):
    /// `nextRequest` makes every check a send makes.
    static func refusal(_ session: ClaudeSession, prompt: String?) -> RequestError? {
        do throws(SessionError) { _ = try session.nextRequest(prompt: [.text(prompt ?? "…")]) } catch {
            if case .invalidRequest(let problem) = error.kind { return problem }
        }
        return nil
    }
}
