#!/usr/bin/env python3
"""Outside figures of the claude-stream command line, each printed with its
command, its baseline in the same run and the load average when it was taken.
CPU time (user + system) comes from the child's rusage: medians of 7 runs (5
for the tool stream), each command alternated with `wc -l` on the same file.
Peak resident memory comes from GNU time, the stream fed through a pipe.

usage: Benchmarks/cli/figures.py [PROGRAM] [--against OTHER]
  PROGRAM  the claude-stream to measure; without it Benchmarks/cli/build.sh
           runs first (the release build as installed, with the Swift
           runtime, Foundation and libstdc++ linked into the program) and
           .build/release/claude-stream is measured
  OTHER    another build (say, a plain `swift build -c release`) whose
           process start is measured in the same alternation as PROGRAM's

Streams are generated here, never stored: a 63 MB stream of one text block in
20-byte deltas, and a 122 MB stream with 16 MiB of tool input in 16-byte
deltas. The process start alone (`replay --final-json` of the bundled
recording, `events --count` of a 2 KB input) is measured too: it is the floor
under every figure. When the recorded corpus (../shared/corpus/anthropic-sse)
is present, `events --count` on 64 MiB of it repeated is measured last.
"""
import argparse, glob, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "../../../shared/corpus/anthropic-sse")
arguments = argparse.ArgumentParser(description="claude-stream's outside figures")
arguments.add_argument("program", nargs="?")
arguments.add_argument("--against", help="another build whose process start is measured beside PROGRAM's")
options = arguments.parse_args()
if options.program:
    BINARY = options.program
else:
    subprocess.run(["bash", os.path.join(HERE, "build.sh")], check=True, stdout=sys.stderr)
    BINARY = os.path.normpath(os.path.join(HERE, "../../.build/release/claude-stream"))


def load():
    return "load " + " ".join(f"{l:.2f}" for l in os.getloadavg())


def figure(text):
    print(f"{text}  [{load()}]", flush=True)


# GNU time reports the peak of a child it forked itself, a small process: a
# child started from this script (vfork, then exec) starts its ru_maxrss at
# this script's resident size (the 1 KiB figure read 15.7 MiB against 12.4
# MiB through time).
PEAK_METER = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def child_cpu(command, piped_from=None, peak_metered=False):
    """CPU seconds and peak RSS (KiB) of one run of `command`, its stdin the
    output of `cat piped_from` when given; with `peak_metered` the peak
    comes from GNU time (and the CPU time includes its own)."""
    meter = PEAK_METER if peak_metered else None
    with tempfile.NamedTemporaryFile("r") as peak_file:
        metered = [meter, "-f", "%M", "-o", peak_file.name] + command if meter else command
        cat = subprocess.Popen(["cat", piped_from], stdout=subprocess.PIPE) if piped_from else None
        process = subprocess.Popen(metered, stdin=cat.stdout if cat else None, stdout=subprocess.DEVNULL)
        if cat:
            cat.stdout.close()  # the child holds the pipe's only reading end
        _, status, usage = os.wait4(process.pid, 0)
        if cat:
            cat.wait()
        lines = peak_file.read().split()
        peak = int(lines[-1]) if meter and lines and lines[-1].isdigit() else usage.ru_maxrss
    return usage.ru_utime + usage.ru_stime, peak, os.waitstatus_to_exitcode(status)


def alternated(commands, runs=7):
    """Median CPU seconds of each command, run in turns (forwards, then backwards)."""
    times = [[] for _ in commands]
    for round in range(runs):
        order = range(len(commands)) if round % 2 == 0 else reversed(range(len(commands)))
        for index in order:
            seconds, _, status = child_cpu(commands[index])
            if status != 0:
                sys.exit(f"{' '.join(commands[index])}: exit {status}")
            times[index].append(seconds)
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


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


print(f"{BINARY}{' against ' + options.against if options.against else ''}; {time.strftime('%Y-%m-%d %H:%M')}")
with tempfile.TemporaryDirectory() as directory:
    tiny = os.path.join(directory, "tiny.sse")
    with open(tiny, "wb") as out:
        out.write(b"data: {}\n\n" * 200)
    text = os.path.join(directory, "text.sse")
    text_delta_stream(text)
    tool = os.path.join(directory, "tool.sse")
    with open(tool, "wb") as out:
        for piece in tool_input_stream():
            out.write(piece)
    small = os.path.join(directory, "small.sse")
    with open(small, "wb") as out:
        for piece in tool_input_stream(0):
            out.write(piece)

    programs = [BINARY] + ([options.against] if options.against else [])
    starts = alternated([[p, "replay", "--final-json"] for p in programs]
                        + [[p, "events", "--count", tiny] for p in programs] + [["wc", "-l", tiny]], runs=9)
    for index, program in enumerate(programs):
        figure(f"process start, CPU: `{program} replay --final-json` (bundled recording) {ms(starts[index])}, "
               f"`events --count tiny.sse` (2 KB) {ms(starts[len(programs) + index])}; `wc -l tiny.sse` {ms(starts[-1])}")
    start_replay, start_events = starts[0], starts[len(programs)]

    size = os.path.getsize(text)
    events, replay, wc = alternated([[BINARY, "events", "--count", text], [BINARY, "replay", "--final-json", text], ["wc", "-l", text]])
    figure(f"`events --count text.sse` ({size / 1e6:.0f} MB of 20-byte text deltas): {ms(events)} CPU = {events / wc:.2f}x "
           f"`wc -l text.sse` ({ms(wc)}) [target <= 3x]; beyond the process start {(events - start_events) / wc:.2f}x")
    figure(f"`replay --final-json text.sse`: {ms(replay)} CPU = {replay / wc:.2f}x `wc -l text.sse` [target <= 4x]; "
           f"beyond the process start {(replay - start_replay) / wc:.2f}x")

    size = os.path.getsize(tool)
    tool_cpu, tool_wc = alternated([[BINARY, "replay", "--final-json", tool], ["wc", "-l", tool]], runs=5)
    figure(f"`replay --final-json tool.sse` ({size / 1e6:.1f} MB, 16 MiB of tool input in 16-byte deltas): {tool_cpu:.3f} s CPU = "
           f"{size / tool_cpu / 1e6:.0f} MB/s of stream [target >= 200 MB/s]; `wc -l tool.sse` {ms(tool_wc)}")

    for name, path in [("tool.sse", tool), ("text.sse", text), ("small.sse", small)]:
        cpu, peak, status = child_cpu([BINARY, "replay", "--final-json", "-"], piped_from=path, peak_metered=True)
        if status != 0:
            sys.exit(f"cat {path} | replay --final-json -: exit {status}")
        what = f"the floor, a {os.path.getsize(small)}-byte tool stream" if path == small else "target <= 64 MiB"
        figure(f"peak RSS, `cat {name} | {os.path.basename(BINARY)} replay --final-json -`: {peak / 1024:.1f} MiB "
               f"({cpu:.2f} s CPU with GNU time's own) [{what}]")

    latencies = sorted(first_event_latency() for _ in range(5))
    figure("first event of a live pipe (`events`, 5 runs): " + ", ".join(ms(l) for l in latencies))

    if glob.glob(os.path.join(CORPUS, "*.sse")):
        stream = os.path.join(directory, "corpus.sse")
        realistic_stream(stream)
        events, wc = alternated([[BINARY, "events", "--count", stream], ["wc", "-l", stream]])
        figure(f"`events --count corpus.sse` (64 MiB of the recorded corpus repeated): {ms(events)} CPU = {events / wc:.2f}x "
               f"`wc -l corpus.sse` ({ms(wc)})")
