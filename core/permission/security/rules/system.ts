/**
 * Block rules about the machine itself: privilege escalation, disks, system
 * files, shutdown.
 *
 * @module
 */
import { cmdSwitch, hasOption, lowerArgs, operands, psValues, subcommand } from "../flags.ts";
import { isSystemPath, resolvedPath } from "../paths.ts";
import type { RuleContext, Word } from "../types.ts";
import { defineRule, EDITORS, writeTargets } from "./helpers.ts";

const ELEVATORS = new Set([
  "sudo",
  "su",
  "doas",
  "pkexec",
  "runas",
  "gsudo",
  "sudoedit",
  "run0",
  "dzdo",
  "pbrun",
  "ksu",
]);

/** sudo, su, doas, pkexec, runas, `-Verb RunAs`, setuid bits, capabilities. */
export const privilegeEscalation = defineRule(
  "privilege-escalation",
  "block",
  "critical",
  "Privilege escalation: sudo, su, doas, pkexec, runas, Start-Process -Verb RunAs, setuid bits, setcap",
  (seg) => {
    if (ELEVATORS.has(seg.name)) return `Privilege escalation with "${seg.rawName}"`;
    if (
      seg.name === "start-process" &&
      psValues(seg.args, "verb").some((v) => /^runas$/i.test(v.text))
    ) {
      return "Privilege escalation with Start-Process -Verb RunAs";
    }
    if (seg.name === "setcap") return "Setting file capabilities with setcap";
    if (seg.name === "chmod") {
      const mode = operands(seg.args)[0]?.text ?? "";
      if (/^[0-7]*[2-7][0-7]{3}$/.test(mode) || /[+=][rwxXt]*s/.test(mode)) {
        return `Setting the setuid/setgid bit: "${mode}"`;
      }
    }
    return null;
  },
);

const DISK_TOOLS =
  /^(mkfs(\..+)?|mke2fs|mkswap|mkntfs|mkdosfs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|wipefs|blkdiscard|diskpart|format-volume|clear-disk|initialize-disk|remove-partition|new-partition|resize-partition|set-partition|zpool|lvremove|vgremove|pvremove|pvcreate|vgcreate|lvcreate)$/;
const DISK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|dm-|loop|sr)|^\\\\\.\\(physicaldrive|[a-z]:)/i;

/** Formatting, partitioning, wiping or writing raw disks; destroying backups. */
export const diskWrite = defineRule(
  "disk-write",
  "block",
  "critical",
  "Writing, formatting, partitioning or wiping disks (dd to a device, mkfs, fdisk, diskpart, format, Clear-Disk) and deleting backups (vssadmin, wbadmin)",
  (seg) => {
    const args = lowerArgs(seg);
    if (DISK_TOOLS.test(seg.name)) {
      if (seg.name === "zpool" && !["destroy", "create", "labelclear"].includes(args[0])) {
        return null;
      }
      if (seg.name === "parted" && args.includes("-l")) return null;
      if (seg.name === "fdisk" && args.length === 1 && args[0] === "-l") return null;
      return `Disk tool "${seg.rawName}" changes disks or partitions`;
    }
    if (
      seg.name === "format" && seg.shell !== "bash" &&
      seg.args.some((a) => /^[a-z]:\\?$/i.test(a.text))
    ) {
      return `Formatting drive "${seg.args.find((a) => /^[a-z]:/i.test(a.text))!.text}"`;
    }
    if (seg.name === "zfs" && args[0] === "destroy") return "Destroying a ZFS dataset";
    if (
      seg.name === "diskutil" &&
      /^(erase|zero|random|secureerase|partition|reformat)/.test(args[0] ?? "")
    ) {
      return `Erasing or partitioning disks with diskutil ${args[0]}`;
    }
    if (seg.name === "cipher" && cmdSwitch(seg.args, "w")) {
      return "Wiping free disk space with cipher /w";
    }
    if (seg.name === "vssadmin" && /^(delete|resize)$/.test(args[0] ?? "")) {
      return "Deleting shadow copies (backups)";
    }
    if (seg.name === "wbadmin" && args[0] === "delete") return "Deleting Windows backups";
    if (
      seg.name === "cryptsetup" && args.some((a) => /^(luksformat|erase|luksremovekey)$/.test(a))
    ) {
      return "Reformatting an encrypted volume";
    }
    if (
      seg.name === "hdparm" &&
      args.some((a) => a.startsWith("--security-erase") || a.startsWith("--trim-sector"))
    ) {
      return "Erasing a disk with hdparm";
    }
    const device = writeTargets(seg).concat(seg.name === "shred" ? operands(seg.args) : [])
      .find((t) => DISK_DEVICE.test(t.text));
    return device ? `Writing to disk device "${device.text}"` : null;
  },
);

const HARMLESS_DEVICES =
  /^\/dev\/(null|zero|stdout|stderr|stdin|tty\w*|fd\/.*|pts\/.*|shm\/.*|random|urandom|full|tcp\/.*|udp\/.*)$/;

/** Whether a write target is a system file (the harmless devices aside). */
function systemTarget(t: Word, ctx: RuleContext): boolean {
  if (!t.literal || HARMLESS_DEVICES.test(resolvedPath(t.text, ctx) ?? "")) return false;
  return isSystemPath(t, ctx) && !DISK_DEVICE.test(t.text);
}

const FILE_CHANGERS = new Set([
  "rm",
  "unlink",
  "shred",
  "remove-item",
  "del",
  "erase",
  "truncate",
  "clear-content",
]);

/** Writing, moving or deleting files in /etc, /usr, /boot, C:\Windows and the like. */
export const systemFiles = defineRule(
  "system-files",
  "block",
  "critical",
  "Writing, moving, editing or deleting system files (/etc/passwd, /etc/hosts, /usr, /boot, /proc/sys, C:\\Windows)",
  (seg, ctx) => {
    const write = writeTargets(seg).find((t) => systemTarget(t, ctx));
    if (write) return `Writing to system file "${write.text}"`;
    const changes = FILE_CHANGERS.has(seg.name) || EDITORS.has(seg.name) ||
      ((seg.name === "mv" || seg.name === "move-item" || seg.name === "move") &&
        operands(seg.args).length > 1);
    if (!changes) return null;
    const hit =
      (seg.name === "remove-item" || seg.name === "move-item"
        ? seg.args.filter((a) => !a.text.startsWith("-"))
        : operands(seg.args))
        .concat(
          seg.name === "del" || seg.name === "erase"
            ? seg.args.filter((a) => !a.text.startsWith("/"))
            : [],
        )
        .find((t) => systemTarget(t, ctx));
    return hit ? `Changing system file "${hit.text}"` : null;
  },
);

const POWER_VERBS =
  /^(poweroff|reboot|halt|suspend|hibernate|hybrid-sleep|kexec|rescue|emergency|soft-reboot)$/;

/** Shutdown, reboot, halt, logoff; killing PID 1 or every process. */
export const shutdown = defineRule(
  "shutdown",
  "block",
  "critical",
  "Shutting down, rebooting or logging off the machine (shutdown, reboot, init 0, Stop-Computer, kill -9 -1)",
  (seg) => {
    const n = seg.name;
    if (
      /^(shutdown|reboot|halt|poweroff|stop-computer|restart-computer|logoff|tsshutdn|psshutdown)$/
        .test(n)
    ) {
      return `"${seg.rawName}" shuts down or restarts the machine`;
    }
    const sub = subcommand(seg);
    if ((n === "init" || n === "telinit") && /^[0156sS]$/.test(sub)) {
      return `Changing the run level with ${n} ${sub}`;
    }
    if (
      (n === "systemctl" || n === "loginctl") &&
      (POWER_VERBS.test(sub) || /^(terminate|kill)-(session|user)$/.test(sub))
    ) {
      return `Power or session change with ${n} ${sub}`;
    }
    if (
      n === "rundll32" &&
      lowerArgs(seg).some((a) => a.includes("setsuspendstate") || a.includes("lockworkstation"))
    ) {
      return "Suspending the machine with rundll32";
    }
    if (n === "kill" && operands(seg.args).some((a) => a.text === "1")) {
      return "Killing PID 1 (init)";
    }
    if (
      n === "kill" && seg.args.some((a) => a.text === "-1") && hasOption(seg.args, "9", ["KILL"])
    ) return "Killing every process";
    if (n === "kill" && seg.args.at(-1)?.text === "-1") return "Killing every process";
    return null;
  },
);
