/**
 * Linux Landlock through Deno's FFI: confines the calling thread so that
 * files may be written only beneath the given folders (and the given
 * files), then replaces this process with the program to run. The kernel
 * keeps the confinement across `execve` and hands it to every child, so
 * nothing the program starts can write elsewhere either. Reading is not
 * restricted. Landlock needs no privileges (Linux 5.13 or newer, when the
 * kernel has it enabled).
 *
 * Two users: the `__confine` helper process (confine_main.ts), which
 * confines itself and becomes the program, and the confined spawner's
 * worker thread (spawn_worker.ts), which confines only itself and then
 * starts commands. minoc's main thread is never confined.
 *
 * @example
 * ```ts
 * const abi = landlockAbi(); // 0 when the kernel has no Landlock
 * const failed = confineAndExec({ dirs: ["/p/build"], files: ["/dev/null"] }, ["bash", "x.sh"]);
 * // only returns when something went wrong
 * ```
 * @module
 */

/** The syscalls and flags, the same on x86_64 and aarch64. */
const SYS = { create: 444n, addRule: 445n, restrictSelf: 446n };
const CREATE_RULESET_VERSION = 1;
const RULE_PATH_BENEATH = 1n;
const PR_SET_NO_NEW_PRIVS = 38;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;

/** Access rights (LANDLOCK_ACCESS_FS_*) that change the file system. */
const WRITE_FILE = 1n << 1n;
const TRUNCATE = 1n << 14n;
const WRITES_V1 = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12].reduce((m, b) => m | (1n << BigInt(b)), 0n);
const REFER = 1n << 13n;

/** Where writing stays possible. */
export interface Writable {
  /** Folders: anything beneath them may be created, written, renamed and removed. */
  dirs: readonly string[];
  /** Single files that may be written (e.g. `/dev/null`). */
  files: readonly string[];
}

const SYMBOLS = {
  ruleset: { name: "syscall", parameters: ["i64", "pointer", "usize", "u32"], result: "i64" },
  addRule: { name: "syscall", parameters: ["i64", "i64", "i64", "pointer", "u32"], result: "i64" },
  restrict: { name: "syscall", parameters: ["i64", "i64", "u32"], result: "i64" },
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  execvp: { parameters: ["buffer", "buffer"], result: "i32" },
  capget: { parameters: ["buffer", "buffer"], result: "i32" },
  capset: { parameters: ["buffer", "buffer"], result: "i32" },
  strerror: { parameters: ["i32"], result: "pointer" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null = null;

/** The C library, opened once; throws with the names tried when none opens. */
function open(): Libc {
  if (libc) return libc;
  const names = ["libc.so.6", "libc.so", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1"];
  for (const name of names) {
    try {
      libc = Deno.dlopen(name, SYMBOLS).symbols;
      return libc;
    } catch {
      // try the next name
    }
  }
  throw new Error(`cannot open the C library (tried ${names.join(", ")})`);
}

/** The Landlock ABI version of the running kernel; 0 when Landlock is missing or off. */
export function landlockAbi(): number {
  if (Deno.build.os !== "linux") return 0;
  const c = open();
  const v = Number(c.ruleset(SYS.create, null, 0n, CREATE_RULESET_VERSION));
  return v > 0 ? v : 0;
}

/** The last C error as text: `Permission denied (errno 13)`. */
function lastError(c: Libc): string {
  const errno = new Deno.UnsafePointerView(c.__errno_location()!).getInt32();
  const text = c.strerror(errno);
  return `${text ? Deno.UnsafePointerView.getCString(text) : "error"} (errno ${errno})`;
}

const cString = (s: string) => new TextEncoder().encode(s + "\0");

/** Landlock's TCP rights (ABI 4): bind and connect. */
const NET_TCP = 1n | 2n;
/** Landlock's scopes (ABI 6): abstract unix sockets and signals outside the sandbox. */
const SCOPES = 1n | 2n;

/** What a confined thread may still do. */
export interface Policy extends Writable {
  /** Refuse TCP bind and connect (needs Landlock ABI 4; see {@link networkConfinable}). */
  noNetwork?: boolean;
}

/** Whether this kernel's Landlock can refuse TCP connections (ABI 4 or newer). */
export function networkConfinable(abi: number): boolean {
  return abi >= 4;
}

/**
 * Confines the calling thread (and every process it starts from now on) to
 * `policy`. Returns a message on failure, null on success. Used by the
 * `__confine` helper before `execvp` and by the confined spawner's worker
 * thread, never by minoc's main thread.
 */
export function confineThread(policy: Policy): string | null {
  const c = open();
  const abi = landlockAbi();
  if (abi === 0) return "Landlock is not available in this kernel";
  if (policy.noNetwork && !networkConfinable(abi)) {
    return `this kernel's Landlock (ABI ${abi}) cannot refuse network connections (ABI 4 needed)`;
  }
  const handled = WRITES_V1 | (abi >= 2 ? REFER : 0n) | (abi >= 3 ? TRUNCATE : 0n);
  // From ABI 6 a confined process can neither signal processes outside the sandbox (minoc, the
  // user's editor) nor reach abstract unix sockets.
  const attr = new BigUint64Array([handled, policy.noNetwork ? NET_TCP : 0n, SCOPES]);
  const size = abi >= 6 ? 24n : abi >= 4 ? 16n : 8n;
  const ruleset = c.ruleset(SYS.create, Deno.UnsafePointer.of(attr), size, 0);
  if (ruleset < 0n) return `cannot create a Landlock ruleset: ${lastError(c)}`;
  const allow = (path: string, access: bigint): string | null => {
    const fd = c.open(cString(path), O_PATH | O_CLOEXEC);
    if (fd < 0) return `cannot open "${path}": ${lastError(c)}`;
    const rule = new DataView(new ArrayBuffer(12)); // packed: u64 allowed_access, s32 parent_fd
    rule.setBigUint64(0, access, true);
    rule.setInt32(8, fd, true);
    const r = c.addRule(SYS.addRule, ruleset, RULE_PATH_BENEATH, Deno.UnsafePointer.of(rule), 0);
    c.close(fd);
    return r < 0n ? `cannot allow writes to "${path}": ${lastError(c)}` : null;
  };
  for (const dir of policy.dirs) {
    const problem = allow(dir, handled);
    if (problem) return problem;
  }
  for (const file of policy.files) {
    const problem = allow(file, handled & (WRITE_FILE | TRUNCATE));
    if (problem) return problem;
  }
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) {
    return `cannot set no_new_privs: ${lastError(c)}`;
  }
  const applied = c.restrict(SYS.restrictSelf, ruleset, 0);
  c.close(Number(ruleset));
  if (applied < 0n) return `cannot apply the Landlock ruleset: ${lastError(c)}`;
  return dropPeeking(c);
}

/**
 * Capabilities with which a confined process run by root still reads the
 * environment of a process outside its sandbox (`/proc/<minoc>/environ`,
 * where minoc's API key is), past Landlock's ptrace scoping: CAP_SYS_ADMIN
 * and CAP_PERFMON (measured; either one is enough).
 */
const PEEKING = [21, 38];
const PR_CAPBSET_DROP = 24;
const PR_CAP_AMBIENT = 47;
const PR_CAP_AMBIENT_CLEAR_ALL = 4;
const CAP_VERSION_3 = 0x20080522;

/**
 * Takes {@link PEEKING} from this thread: out of its effective, permitted and
 * inheritable sets (no_new_privs then keeps every program it starts from
 * gaining them back, root's included), its bounding set where it may, and
 * every ambient capability. Null on success.
 */
function dropPeeking(c: Libc): string | null {
  const header = new Uint32Array([CAP_VERSION_3, 0]); // pid 0: this thread
  const sets = new Uint32Array(6); // effective, permitted, inheritable; for capabilities 0–31, then 32–63
  if (c.capget(new Uint8Array(header.buffer), new Uint8Array(sets.buffer)) !== 0) {
    return `cannot read this thread's capabilities: ${lastError(c)}`;
  }
  for (const cap of PEEKING) {
    for (let k = 0; k < 3; k++) sets[(cap >> 5) * 3 + k] &= ~(1 << (cap & 31));
  }
  if (c.capset(new Uint8Array(header.buffer), new Uint8Array(sets.buffer)) !== 0) {
    return `cannot drop capabilities: ${lastError(c)}`;
  }
  // Where the thread may change its bounding set (root) and the kernel knows the capability.
  for (const cap of PEEKING) c.prctl(PR_CAPBSET_DROP, BigInt(cap), 0n, 0n, 0n);
  c.prctl(PR_CAP_AMBIENT, BigInt(PR_CAP_AMBIENT_CLEAR_ALL), 0n, 0n, 0n);
  return null;
}

/**
 * Confines this thread to `policy` and runs `argv` (the program is looked
 * up on PATH) in place of this process. Returns a message only on failure.
 */
export function confineAndExec(policy: Policy, argv: readonly string[]): string {
  if (argv.length === 0) return "no program to run";
  const problem = confineThread(policy);
  if (problem) return problem;
  const c = open();
  const words = argv.map(cString);
  const pointers = new BigUint64Array(words.length + 1);
  words.forEach((w, i) => pointers[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(w))));
  c.execvp(words[0], new Uint8Array(pointers.buffer));
  return `cannot start "${argv[0]}": ${lastError(c)}`;
}
