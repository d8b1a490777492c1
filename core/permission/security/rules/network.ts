/**
 * Rules about the network and code of unknown origin: firewall, bind and
 * reverse shells, downloaded or decoded code, listeners, downloads.
 *
 * @module
 */
import { hasOption, lowerArgs, psValues } from "../flags.ts";
import { isInterpreter, POSIX_SHELLS, POWERSHELLS } from "../names.ts";
import { isHostile } from "../sources.ts";
import type { Segment } from "../types.ts";
import { anyArg, defineRule } from "./helpers.ts";

const IPTABLES_CHANGE =
  /^-([ADIRFZNXPE]|-(append|delete|insert|replace|flush|zero|new-chain|delete-chain|policy|rename-chain))/;
const UFW_READ = /^(status|show|version|app|list|info|verbose|numbered|--help|-h|--version)$/;
const FIREWALLD_CHANGE =
  /^--(add|remove|set|reload|complete-reload|runtime-to-permanent|new|delete|change|panic-on|load|reset)/;

/** Firewall changes and opening ports. */
export const firewall = defineRule(
  "firewall",
  "block",
  "critical",
  "Changing the firewall or opening ports (iptables, nft, ufw, firewall-cmd, pfctl, netsh advfirewall, New-NetFirewallRule, upnpc)",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    if (
      /^(iptables|ip6tables|iptables-legacy|ip6tables-legacy|ebtables|arptables)$/.test(n) &&
      seg.args.some((a) => IPTABLES_CHANGE.test(a.text))
    ) {
      return `Changing the firewall with ${n}`;
    }
    if (/^(iptables|ip6tables)-restore$/.test(n)) return `Changing the firewall with ${n}`;
    if (
      n === "nft" && args.length > 0 &&
      !/^(list|-a|--handle|-j|--json|-n|-c|--check)$/.test(args[0])
    ) return "Changing the firewall with nft";
    if (n === "ufw" && args.length > 0 && !UFW_READ.test(args[0])) {
      return "Changing the firewall with ufw";
    }
    if (n === "pfctl" && !seg.args.every((a) => /^-(s|v)/.test(a.text))) {
      return "Changing the firewall with pfctl";
    }
    if (n === "firewall-cmd" && args.some((a) => FIREWALLD_CHANGE.test(a))) {
      return "Changing the firewall with firewall-cmd";
    }
    if (n === "netsh" && /^(advfirewall|firewall)$/.test(args[0] ?? "") && !args.includes("show")) {
      return "Changing the Windows firewall with netsh";
    }
    if (n === "netsh" && args.includes("portproxy") && args.some((a) => /^(add|set)$/.test(a))) {
      return "Opening a port proxy with netsh";
    }
    if (/^(new|set|remove|enable|disable|copy|rename)-netfirewall(rule|profile)$/.test(n)) {
      return `Changing the firewall with ${seg.rawName}`;
    }
    if (n === "upnpc" && args.some((a) => a === "-a" || a === "-r")) {
      return "Opening a port on the router with upnpc";
    }
    return null;
  },
);

/** Bind and reverse shells. */
export const reverseShell = defineRule(
  "reverse-shell",
  "block",
  "critical",
  "Bind or reverse shells: /dev/tcp redirections, nc -e, socat EXEC, shells piped through nc, raw sockets in one-liners",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    const devTcp = [...seg.writes, ...seg.args].find((w) => /\/dev\/(tcp|udp)\//.test(w.text)) ??
      (seg.stdin?.kind === "file" && /\/dev\/(tcp|udp)\//.test(seg.stdin.detail)
        ? { text: seg.stdin.detail }
        : undefined);
    if (devTcp) return `Network redirection "${devTcp.text}" (reverse shell)`;
    if (
      /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd)$/.test(n) &&
      args.some((a) => /^(-e|-c|--exec|--sh-exec|--lua-exec)$/.test(a) || /^-[a-z]*e$/.test(a))
    ) {
      return `${n} runs a program for network peers (bind or reverse shell)`;
    }
    if (n === "socat" && args.some((a) => /(^|[,!])(exec|system):/.test(a))) {
      return "socat connects a program to the network (bind or reverse shell)";
    }
    const shellLike = POSIX_SHELLS.has(n) || POWERSHELLS.has(n) || n === "cmd";
    if (
      shellLike &&
      /(^|[|;&\s])(nc|ncat|netcat|telnet|socat|openssl\s+s_client)(\s|$)/.test(seg.pipeline)
    ) {
      return "A shell piped to or from a network connection (reverse shell)";
    }
    if (n === "new-object" && args.some((a) => /net\.sockets\.tcp(client|listener)/.test(a))) {
      return "Raw TCP socket in PowerShell (reverse shell pattern)";
    }
    if (isInterpreter(n)) {
      const code = args.join(" ");
      if (
        /socket|fsockopen|tcpsocket|net\.connect/.test(code) &&
        /(\/bin\/(ba|z|da)?sh|pty\.spawn|subprocess|cmd\.exe|\bexec\b|spawn|dup2|proc_open|popen)/
          .test(code)
      ) {
        return `${n} one-liner connects a shell to a socket (reverse shell)`;
      }
    }
    return null;
  },
);

/** Code fetched from the network and run. */
export const remoteCode = defineRule(
  "remote-code",
  "block",
  "critical",
  "Downloaded code executed: curl … | sh, wget -O- … | bash, bash <(curl …), iwr … | iex, mshta/regsvr32 with URLs",
  (seg) => {
    if (seg.code?.kind === "network") {
      return `Runs code downloaded from the network: ${shorten(seg.code.detail)}`;
    }
    const url = anyArg(seg, /^(\/i:)?https?:\/\//i);
    if ((seg.name === "mshta" || seg.name === "regsvr32") && url) {
      return `${seg.name} runs code from "${url.text}"`;
    }
    if (seg.name === "msiexec" && url) return `msiexec installs a package from "${url.text}"`;
    return null;
  },
);

/** Code decoded from base64 or similar and run; encoded PowerShell. */
export const encodedPayload = defineRule(
  "encoded-payload",
  "block",
  "critical",
  "Encoded payloads executed: base64 -d | sh, xxd -r | bash, powershell -EncodedCommand, FromBase64String | iex",
  (
    seg,
  ) => (seg.code?.kind === "decoded"
    ? `Runs an encoded payload: ${shorten(seg.code.detail)}`
    : null),
);

/** Unknown program output or variables run as code. */
export const pipeToShell = defineRule(
  "pipe-to-shell",
  "warn",
  "high",
  'Program output or variables run as code (… | sh, eval "$(…)", bash -c "$CMD", iex $x)',
  (seg) => {
    const code = seg.code;
    if (
      !code || seg.dynamic || code.kind === "literal" || isHostile(code) || code.kind === "file"
    ) return null;
    return `Runs code that is only known when the command runs: ${shorten(code.detail)}`;
  },
);

/** The command word itself is computed when the command runs. */
export const dynamicCommand = defineRule(
  "dynamic-command",
  "warn",
  "medium",
  "The command name is computed when the command runs ($CMD args, $(…) args)",
  (
    seg,
  ) => (seg.dynamic && !isHostile(seg.code)
    ? `The command name "${seg.rawName}" is only known when the command runs`
    : null),
);

/** Servers, listeners and tunnels. */
export const listener = defineRule(
  "listener",
  "warn",
  "medium",
  "Listening on the network or opening tunnels (python3 -m http.server, nc -l, php -S, ngrok, ssh -R)",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    if (
      /^python/.test(n) &&
      args.some((a, i) =>
        args[i - 1] === "-m" && /^(http\.server|simplehttpserver|pyftpdlib|smtpd|aiosmtpd)$/.test(a)
      )
    ) {
      return `Starts a network server: ${seg.text}`;
    }
    if (/^(nc|ncat|netcat)$/.test(n) && hasOption(seg.args, "l", ["listen"])) {
      return `Listens on a port: ${seg.text}`;
    }
    if (n === "socat" && args.some((a) => /(tcp|udp)[46]?-listen/.test(a))) {
      return `Listens on a port: ${seg.text}`;
    }
    if (/^php/.test(n) && args.includes("-s")) return `Starts a network server: ${seg.text}`;
    if (n === "ruby" && args.some((a) => a === "httpd" || a.includes("webrick"))) {
      return `Starts a network server: ${seg.text}`;
    }
    if (/^(ngrok|cloudflared|localtunnel|lt)$/.test(n)) return `Opens a public tunnel: ${seg.text}`;
    if (n === "ssh" && seg.args.some((a) => /^-[a-zA-Z]*[RD]/.test(a.text))) {
      return `Opens an SSH tunnel: ${seg.text}`;
    }
    return null;
  },
);

/** Downloads written to files. */
export const download = defineRule(
  "download",
  "warn",
  "medium",
  "Downloading files (curl -o, wget, Invoke-WebRequest -OutFile, certutil -urlcache, bitsadmin)",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    if (n === "curl" && curlSaves(seg)) return `Downloads to a file: ${seg.text}`;
    if (n === "wget" && !toStdout(seg)) return `Downloads to a file: ${seg.text}`;
    if (
      (n === "invoke-webrequest" || n === "invoke-restmethod") &&
      psValues(seg.args, "outfile", 2).length > 0
    ) return `Downloads to a file: ${seg.text}`;
    if (n === "start-bitstransfer" || n === "aria2c" || (n === "fetch" && seg.shell === "bash")) {
      return `Downloads to a file: ${seg.text}`;
    }
    if (n === "certutil" && args.some((a) => /^[-/]urlcache$/.test(a))) {
      return `Downloads with certutil: ${seg.text}`;
    }
    if (n === "bitsadmin" && args.some((a) => /^\/(transfer|addfile)$/.test(a))) {
      return `Downloads with bitsadmin: ${seg.text}`;
    }
    return null;
  },
);

/** `curl -o file`, `-O`, `> file`; not `-o /dev/null`. */
function curlSaves(seg: Segment): boolean {
  const nul = (t: string | undefined) => t === "/dev/null" || t?.toLowerCase() === "nul";
  if (seg.writes.some((w) => !nul(w.text))) return true;
  if (hasOption(seg.args, "OJ", ["remote-name", "remote-name-all", "output-dir"])) return true;
  return seg.args.some((a, i) =>
    (/^-[a-zA-Z]*o$/.test(a.text) || a.text === "--output") && !nul(seg.args[i + 1]?.text) ||
    /^--output=/.test(a.text) && !nul(a.text.slice(9))
  );
}

/** `wget -O-`, `wget -qO -`, `--spider`: nothing is saved. */
function toStdout(seg: Segment): boolean {
  return seg.args.some((a, i) =>
    /^-[a-zA-Z]*O-$/.test(a.text) || a.text === "--output-document=-" || a.text === "--spider" ||
    (/^-[a-zA-Z]*O$/.test(a.text) || a.text === "--output-document") &&
      seg.args[i + 1]?.text === "-"
  );
}

function shorten(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 120 ? t.slice(0, 117) + "…" : t;
}
