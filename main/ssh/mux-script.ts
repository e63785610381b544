// The mux's own program, run on the host by the login shell's one command (BOOTSTRAP): its requests and
// frames are read by Mux (mux.ts).
import { shellQuote } from '../../shared/quote';

/**
 * The host's side. Requests on stdin, one a line: `R ID JSON` runs a command with no input, `S ID JSON` a
 * stream whose input stays open until it is stopped (how `untilClosed` knows), `K ID` stops one (its whole
 * process group). On stdout, after `\n<token> mux\n`, frames `ID KIND LENGTH\n` and LENGTH bytes: `o` and
 * `e` its output, `x` its exit code (negative: the signal). Its input ending (the channel gone) ends all.
 * Python 3.5 and later.
 */
export const MUX_SCRIPT = String.raw`
import json, os, selectors, signal, subprocess, sys
# Writes wait for room: the channel's stdout could come non-blocking.
os.set_blocking(1, True)
def write(data):
    # A write a signal (SIGCHLD) interrupts can be short: the rest is written after it.
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]
def send(i, kind, data=b""):
    write(("%s %s %d\n" % (i, kind, len(data))).encode() + data)
wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
sel = selectors.DefaultSelector()
sel.register(0, selectors.EVENT_READ, None)
sel.register(wake_r, selectors.EVENT_READ, None)
children = {}
def stop(i):
    child = children.get(i)
    if child is None:
        return
    if child[2] is not None:
        child[2].close()
        child[2] = None
    try:
        os.killpg(child[0].pid, signal.SIGKILL)
    except OSError:
        pass
def drop(fd):
    sel.unregister(fd)
    os.close(fd)
def reap():
    for i, child in list(children.items()):
        code = child[0].poll()
        if code is None:
            continue
        for fd, kind in list(child[1].items()):
            try:
                while True:
                    data = os.read(fd, 65536)
                    if not data:
                        break
                    send(i, kind, data)
            except BlockingIOError:
                pass
            drop(fd)
        if child[2] is not None:
            child[2].close()
        send(i, "x", str(code).encode())
        del children[i]
def start(op, i, command):
    p = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE if op == "S" else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    fds = {}
    for stream, kind in ((p.stdout, "o"), (p.stderr, "e")):
        fd = os.dup(stream.fileno())
        stream.close()
        os.set_blocking(fd, False)
        fds[fd] = kind
        sel.register(fd, selectors.EVENT_READ, i)
    children[i] = [p, fds, p.stdin]
write(b"\n" + sys.argv[1].encode() + b" mux\n")
pending = b""
while True:
    for key, _ in sel.select():
        fd = key.fd
        if fd == wake_r:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
        elif fd == 0:
            data = os.read(0, 65536)
            if not data:
                for i in list(children):
                    stop(i)
                sys.exit(0)
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                parts = line.decode().split(" ", 2)
                if parts[0] == "K":
                    stop(parts[1])
                else:
                    try:
                        start(parts[0], parts[1], json.loads(parts[2]))
                    except OSError as error:
                        send(parts[1], "e", str(error).encode())
                        send(parts[1], "x", b"127")
        else:
            i = key.data
            child = children.get(i)
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if data:
                send(i, child[1][fd], data)
            else:
                drop(fd)
                del child[1][fd]
    reap()
`;

/** The login shell's one command: the mux where python3 runs, else a plain `sh` helper, saying which. */
export const BOOTSTRAP = `if command -v python3 >/dev/null 2>&1; then exec python3 -u -c ${shellQuote([MUX_SCRIPT])} "$1"; fi
printf '\\n%s sh\\n' "$1"
exec sh`;
