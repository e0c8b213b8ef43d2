#!/usr/bin/env python3
"""Outside figures of the claude-stream command line, each beside its baseline
in the same run: CPU time from the child's rusage (medians of 7 runs, each
command alternated with `wc -l` on the same file), peak resident memory, and
first-event latency on a live pipe.

usage: Benchmarks/cli/figures.py [PATH-TO-claude-stream]
       (without a path it first runs Benchmarks/cli/build.sh, the release
        build as installed, with the Swift runtime, Foundation and libstdc++
        linked into the program, and measures .build/release/claude-stream;
        a plain `swift build -c release` build pays the dynamic loader's
        symbol lookups on every start)

Streams are generated here, never stored: 64 MiB of the recorded corpus
(../shared/corpus/anthropic-sse) repeated, a 63 MB stream of 20-byte text
deltas, and a 122 MB stream with 16 MiB of tool input streamed in 16-byte
deltas. The process start alone (a 2 KB input) is measured too: it is the
floor under every figure (mapping and relocating the program, the
initialisers of the Swift runtime, Foundation and the libraries chat's
network stack loads).
"""
import glob, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "../../../shared/corpus/anthropic-sse")
if len(sys.argv) > 1:
    BINARY = sys.argv[1]
else:
    subprocess.run(["bash", os.path.join(HERE, "build.sh")], check=True, stdout=sys.stderr)
    BINARY = os.path.normpath(os.path.join(HERE, "../../.build/release/claude-stream"))


def load():
    return "load average " + ", ".join(f"{l:.2f}" for l in os.getloadavg())


# GNU time reports the peak of a child it forked itself, a small process: a
# child started from this script (vfork, then exec) starts its ru_maxrss at
# this script's resident size (the 1 KiB figure read 15.7 MiB against 12.4
# MiB through time).
PEAK_METER = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def child_cpu(command, stdin=None, stdout=subprocess.DEVNULL, peak_metered=False):
    """CPU seconds and peak RSS (KiB) of one run of `command`; with
    `peak_metered` the peak comes from GNU time (and the CPU time includes its own)."""
    meter = PEAK_METER if peak_metered else None
    with tempfile.NamedTemporaryFile("r") as peak_file:
        metered = [meter, "-f", "%M", "-o", peak_file.name] + command if meter else command
        process = subprocess.Popen(metered, stdin=subprocess.PIPE if stdin is not None else None, stdout=stdout)
        if stdin is not None:
            for piece in stdin():
                process.stdin.write(piece)
            process.stdin.close()
        _, status, usage = os.wait4(process.pid, 0)
        lines = peak_file.read().split()
        peak = int(lines[-1]) if meter and lines and lines[-1].isdigit() else usage.ru_maxrss
    return usage.ru_utime + usage.ru_stime, peak, os.waitstatus_to_exitcode(status)


def best_of(runs, command):
    return min(child_cpu(command)[0] for _ in range(runs))


def alternated(commands, runs=7):
    """Median CPU seconds of each command, run in turns (forwards, then backwards)."""
    times = [[] for _ in commands]
    for round in range(runs):
        order = range(len(commands)) if round % 2 == 0 else reversed(range(len(commands)))
        for index in order:
            times[index].append(child_cpu(commands[index])[0])
    return [statistics.median(t) for t in times]


def text_delta_stream(path, size=63_000_000):
    """One message whose text arrives in 20-byte deltas (escapes included), `size` bytes."""
    words = [b"the ", b"stream ", b"of ", b"tokens ", b"arrives ", b"in ", b"small ", b"pieces ", b"\\u00e9 ", b"\\n"]
    head = (b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_t","type":"message",'
            b'"role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,'
            b'"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
            b'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n')
    tail = (b'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n'
            b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}\n\n'
            b'event: message_stop\ndata: {"type":"message_stop"}\n\n')
    with open(path, "wb") as out:
        out.write(head)
        written, word = len(head) + len(tail), 0
        while written < size:
            text = b""
            while len(text) + len(words[word % len(words)]) <= 20:
                text += words[word % len(words)]
                word += 7
            event = (b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'
                     + text.ljust(20) + b'"}}\n\n')
            out.write(event)
            written += len(event)
        out.write(tail)


def realistic_stream(path, size=64 << 20):
    recordings = sorted(glob.glob(os.path.join(CORPUS, "*.sse")))
    if not recordings:
        sys.exit("corpus absent: " + CORPUS)
    body = b"".join(open(name, "rb").read() for name in recordings)
    with open(path, "wb") as out:
        written = 0
        while written < size:
            piece = body[: size - written]
            out.write(piece)
            written += len(piece)


def tool_input_stream(input_bytes=16 << 20):
    yield (b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_big","type":"message",'
           b'"role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,'
           b'"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
           b'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":'
           b'{"type":"tool_use","id":"toolu_big","name":"write","input":{}}}\n\n')
    delta = lambda s: b'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"' + s + b'"}}\n\n'
    yield delta(b'{\\"data\\": \\"')
    block = delta(b"abcdefghijklmnop") * 8192
    for _ in range(input_bytes // 16 // 8192):
        yield block
    yield delta(b'\\"}') + (b'data: {"type":"content_block_stop","index":0}\n\n'
        b'data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}\n\n'
        b'data: {"type":"message_stop"}\n\n')


def first_event_latency():
    process = subprocess.Popen([BINARY, "events"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    time.sleep(0.3)  # started and waiting
    start = time.monotonic()
    process.stdin.write(b"data: one\n\n")
    process.stdout.readline()
    latency = time.monotonic() - start
    process.stdin.close()
    process.wait()
    return latency


print(f"{BINARY}; {load()}")
# Memory first, while this script is small: without GNU time a child's
# ru_maxrss starts at this script's resident size.
size = sum(len(p) for p in tool_input_stream())
small_peak = child_cpu([BINARY, "replay", "--final-json", "-"], stdin=lambda: tool_input_stream(1 << 10), peak_metered=True)[1]
cpu, peak, status = child_cpu([BINARY, "replay", "--final-json", "-"], stdin=tool_input_stream, peak_metered=True)
print(f"replay --final-json, {size / 1e6:.1f} MB stream with 16 MiB of tool input through a pipe: peak RSS {peak / 1024:.1f} MiB "
      f"(exit {status}, {cpu:.2f} s CPU); same command on a 1 KiB input: {small_peak / 1024:.1f} MiB")
latencies = sorted(first_event_latency() for _ in range(5))
print("first event of a live pipe: " + ", ".join(f"{l * 1000:.1f} ms" for l in latencies))

with tempfile.TemporaryDirectory() as directory:
    tiny = os.path.join(directory, "tiny.sse")
    with open(tiny, "wb") as out:
        out.write(b"data: {}\n\n" * 200)
    start_events, start_replay, start_wc = alternated([[BINARY, "events", "--count", tiny], [BINARY, "replay", "--final-json", tiny],
                                                       ["wc", "-l", tiny]], runs=9)
    print(f"process start (2 KB input): events {start_events * 1000:.1f} ms, replay {start_replay * 1000:.1f} ms CPU; wc -l {start_wc * 1000:.1f} ms")

    stream = os.path.join(directory, "stream.sse")
    realistic_stream(stream)
    events, wc = alternated([[BINARY, "events", "--count", stream], ["wc", "-l", stream]])
    print(f"events --count, 64 MiB of recorded streams: {events:.4f} s CPU; wc -l {wc:.4f} s; ratio {events / max(wc, 1e-9):.2f}x")

    text = os.path.join(directory, "text.sse")
    text_delta_stream(text)
    size = os.path.getsize(text)
    events, replay, wc = alternated([[BINARY, "events", "--count", text], [BINARY, "replay", "--final-json", text], ["wc", "-l", text]])
    print(f"{size / 1e6:.0f} MB of 20-byte text deltas: events --count {events:.4f} s = {events / wc:.2f}x wc -l; "
          f"replay --final-json {replay:.4f} s = {replay / wc:.2f}x wc -l ({wc:.4f} s); "
          f"beyond the process start: events {(events - start_events) / wc:.2f}x, replay {(replay - start_replay) / wc:.2f}x")
    text_peak = child_cpu([BINARY, "replay", "--final-json", "-"], stdin=lambda: iter([open(text, "rb").read()]), peak_metered=True)[1]
    print(f"replay --final-json of the same through a pipe: peak RSS {text_peak / 1024:.1f} MiB")

    tool = os.path.join(directory, "tool.sse")
    with open(tool, "wb") as out:
        for piece in tool_input_stream():
            out.write(piece)
    tool_cpu, tool_wc = alternated([[BINARY, "replay", "--final-json", tool], ["wc", "-l", tool]], runs=5)
    print(f"replay --final-json, {os.path.getsize(tool) / 1e6:.1f} MB stream of 16 MiB tool input: {tool_cpu:.3f} s CPU = "
          f"{os.path.getsize(tool) / tool_cpu / 1e6:.0f} MB/s of stream; wc -l {tool_wc:.4f} s")
print(load())
