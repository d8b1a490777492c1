/**
 * Block rules about machine-wide configuration: services, accounts,
 * mounts, boot, kernel and network settings, the HKLM registry.
 *
 * @module
 */
import { cmdSwitch, hasArg, lowerArgs, operands, subcommand } from "../flags.ts";
import type { Segment } from "../types.ts";
import { defineRule, psPaths } from "./helpers.ts";

const SYSTEMCTL_CHANGES =
  /^(start|stop|restart|reload|try-restart|reload-or-restart|enable|disable|reenable|mask|unmask|kill|daemon-reload|daemon-reexec|set-default|isolate|edit|link|preset|preset-all|revert|set-property|reset-failed|set-environment|import-environment)$/;
const SERVICE_CMDLETS = /^(start|stop|restart|set|new|remove|suspend|resume)-service$/;

/** Starting, stopping, enabling or creating system services. */
export const services = defineRule(
  "services",
  "block",
  "critical",
  "Starting, stopping, enabling or creating system services (systemctl, service, launchctl, sc, net start, Stop-Service)",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    const sub = subcommand(seg);
    if (SERVICE_CMDLETS.test(n)) return `Changing a service with ${seg.rawName}`;
    if (n === "systemctl" && !args.includes("--user") && SYSTEMCTL_CHANGES.test(sub)) {
      return `Changing services with systemctl ${sub}`;
    }
    if (n === "service" && args.length >= 2 && !/^(status|--status-all)$/.test(args[1])) {
      return `Changing service "${args[0]}" (${args[1]})`;
    }
    if (
      n === "launchctl" &&
      /^(load|unload|bootstrap|bootout|enable|disable|kickstart|kill|remove|submit|start|stop)$/
        .test(sub)
    ) {
      return `Changing services with launchctl ${sub}`;
    }
    if (
      n === "sc" &&
      /^(create|config|delete|stop|start|pause|continue|failure|sdset|privs|description)$/.test(
        args[0] ?? "",
      )
    ) {
      return `Changing a Windows service with sc ${args[0]}`;
    }
    if (n === "net" && /^(start|stop|pause|continue)$/.test(args[0] ?? "") && args.length > 1) {
      return `Changing a Windows service with net ${args[0]}`;
    }
    if (/^(update-rc\.d|chkconfig|rc-update|rc-service|initctl)$/.test(n) && args.length > 1) {
      return `Changing services with ${n}`;
    }
    if (
      n === "schtasks" && /^\/(create|change)$/.test(args[0] ?? "") &&
      args.some((a, i) => a === "/ru" && /^(system|nt authority)/.test(args[i + 1] ?? ""))
    ) {
      return "Creating a scheduled task that runs as SYSTEM";
    }
    return null;
  },
);

const ACCOUNT_TOOLS =
  /^(useradd|userdel|usermod|adduser|deluser|addgroup|delgroup|groupadd|groupdel|groupmod|gpasswd|passwd|chpasswd|chsh|chfn|vipw|vigr|visudo|smbpasswd|new-localuser|remove-localuser|set-localuser|enable-localuser|disable-localuser|rename-localuser|add-localgroupmember|remove-localgroupmember|new-localgroup|remove-localgroup)$/;

/** Creating, deleting or changing accounts, groups and passwords. */
export const accounts = defineRule(
  "accounts",
  "block",
  "critical",
  "Creating, deleting or changing user accounts, groups and passwords (useradd, passwd, net user /add, New-LocalUser)",
  (seg) => {
    const args = lowerArgs(seg);
    if (ACCOUNT_TOOLS.test(seg.name)) return `Changing accounts with "${seg.rawName}"`;
    if (seg.name === "chage" && !args.includes("-l")) return "Changing password ageing with chage";
    if (seg.name === "net" && /^(user|localgroup|group|accounts)$/.test(args[0] ?? "")) {
      const changes = args.some((a) =>
        /^\/(add|delete|del|active|passwordreq|expires|domain)/.test(a)
      ) || (args[0] === "user" && args.length > 2) ||
        args[0] === "accounts" && args.length > 1;
      if (changes) return `Changing accounts with net ${args[0]}`;
    }
    if (
      seg.name === "dscl" &&
      args.some((a) => /^-(create|delete|passwd|append|merge|change)$/.test(a))
    ) return "Changing accounts with dscl";
    if (
      seg.name === "sysadminctl" &&
      args.some((a) => /^-(adduser|deleteuser|resetpasswordfor)$/.test(a))
    ) return "Changing accounts with sysadminctl";
    return null;
  },
);

/** Mounting, unmounting, swap. */
export const mounts = defineRule(
  "mounts",
  "block",
  "critical",
  "Mounting or unmounting file systems and swap (mount, umount, swapon, mountvol, Mount-DiskImage)",
  (seg) => {
    const args = lowerArgs(seg);
    if (seg.name === "mount" && operands(seg.args).length > 0) return "Mounting a file system";
    if (seg.name === "mount" && args.some((a) => /^(-a|--all|-o|--bind|--move)$/.test(a))) {
      return "Mounting file systems";
    }
    if (seg.name === "umount" || seg.name === "unmount") return "Unmounting a file system";
    if (
      (seg.name === "swapon" || seg.name === "swapoff") &&
      !args.some((a) => /^(-s|--show|--summary)$/.test(a))
    ) {
      return `Changing swap with ${seg.name}`;
    }
    if (seg.name === "mountvol" && args.length > 0) return "Changing volume mount points";
    if (/^(mount|dismount)-(diskimage|vhd)$/.test(seg.name)) {
      return `Changing mounts with ${seg.rawName}`;
    }
    if (
      seg.name === "diskutil" && /^(mount|unmount|unmountdisk|eject|mountdisk)$/.test(args[0] ?? "")
    ) return `Changing mounts with diskutil ${args[0]}`;
    return null;
  },
);

const BOOT_TOOLS =
  /^(grub-install|grub2-install|grub-mkconfig|grub2-mkconfig|update-grub|update-grub2|grub-reboot|grub-set-default|grub2-set-default|bcdboot|bootrec|bootsect|update-initramfs|mkinitcpio|dracut|kernelstub|bless)$/;

/** Boot loader, initramfs and firmware settings. */
export const bootConfig = defineRule(
  "boot-config",
  "block",
  "critical",
  "Changing the boot loader, initramfs or firmware settings (grub-install, update-grub, bcdedit, efibootmgr, nvram)",
  (seg) => {
    const args = lowerArgs(seg);
    if (BOOT_TOOLS.test(seg.name)) return `Changing the boot configuration with "${seg.rawName}"`;
    if (seg.name === "bcdedit" && args.length > 0 && !/^\/(enum|v)$/.test(args[0])) {
      return "Changing the boot configuration with bcdedit";
    }
    if (
      seg.name === "efibootmgr" &&
      args.some((a) =>
        /^-([bBcoOnNaAg]|-(create|delete-bootnum|bootorder|bootnext|active|inactive))/.test(a)
      )
    ) {
      return "Changing firmware boot entries with efibootmgr";
    }
    if (seg.name === "nvram" && args.length > 0 && !args.includes("-p")) {
      return "Changing firmware variables with nvram";
    }
    if (seg.name === "fwupdmgr" && /^(update|install|downgrade|reinstall)$/.test(args[0] ?? "")) {
      return "Updating firmware";
    }
    if (seg.name === "reagentc" && args.includes("/disable")) {
      return "Disabling the Windows recovery environment";
    }
    return null;
  },
);

/** HKLM and other machine-wide registry hives. */
const MACHINE_HIVE =
  /^(hklm|hkey_local_machine|hkcr|hkey_classes_root|hku|hkey_users|hkcc|hkey_current_config)(:|\\|\/|$)|^registry::hkey_(local_machine|classes_root|users|current_config)/i;
const REG_WRITES = /^(add|delete|import|restore|load|unload|copy)$/;
const ITEM_CMDLETS = /^(set|new|remove|rename|clear|copy|move)-item(property)?$/;

/** Registry writes in a given hive, shared with the per-user rule. */
export function registryWrite(seg: Segment, hive: RegExp): string | null {
  const args = lowerArgs(seg);
  if (seg.name === "reg" && REG_WRITES.test(args[0] ?? "")) {
    const key = seg.args[1]?.text ?? "";
    if (
      hive.test(key) || (args[0] === "import" || args[0] === "restore") && hive === MACHINE_HIVE
    ) return `Registry change: reg ${args[0]} ${key}`;
  }
  if (
    seg.name === "regedit" && (cmdSwitch(seg.args, "s") || args.some((a) => a.endsWith(".reg"))) &&
    hive === MACHINE_HIVE
  ) {
    return "Importing registry settings with regedit";
  }
  if (ITEM_CMDLETS.test(seg.name)) {
    const key = psPaths(seg).find((p) => hive.test(p.text));
    if (key) return `Registry change: ${seg.rawName} ${key.text}`;
  }
  return null;
}

/** Machine-wide registry changes. */
export const registryMachine = defineRule(
  "registry-machine",
  "block",
  "critical",
  "Changing the machine-wide registry (HKLM, HKCR, HKU) with reg, regedit or PowerShell item cmdlets",
  (seg) => registryWrite(seg, MACHINE_HIVE),
);

const NET_CHANGE = /^(add|del|delete|change|replace|flush|set|append)$/;

/** Kernel, security, network and other machine-wide settings. */
export const machineConfig = defineRule(
  "machine-config",
  "block",
  "critical",
  "Other machine-wide settings: sysctl, kernel modules, SELinux/SIP/Defender, network interfaces and routes, hostname and clock, setx /M, alternatives",
  (seg) => kernelSetting(seg) ?? networkSetting(seg) ?? systemSetting(seg),
);

function kernelSetting(seg: Segment): string | null {
  const n = seg.name;
  const args = lowerArgs(seg);
  const sysctlWrites = args.some((a) => /^(-w|-p|--system|--load)$/.test(a) || a.includes("="));
  if (n === "sysctl" && sysctlWrites) return "Changing kernel parameters with sysctl";
  if (/^(insmod|rmmod|kextload|kextunload|setenforce|setsebool|semanage)$/.test(n)) {
    return `Changing kernel or security settings with ${n}`;
  }
  const dryRun = args.some((a) => /^(-n|--dry-run|-c|--showconfig|--show-depends|-D)$/.test(a));
  if (n === "modprobe" && !dryRun) return "Loading or removing kernel modules";
  if (n === "csrutil" && /^(disable|clear|authenticated-root)$/.test(args[0] ?? "")) {
    return "Changing System Integrity Protection";
  }
  if (
    n === "spctl" && args.some((a) => /^--(master-disable|global-disable|add|disable)$/.test(a))
  ) {
    return "Changing Gatekeeper";
  }
  if (/^(set|add|remove)-mppreference$/.test(n)) return "Changing Microsoft Defender settings";
  return null;
}

const IP_OBJECTS = /^(addr|address|a|route|r|link|l|rule|neigh|tunnel|netns)$/;
const NET_CMDLETS =
  /^(new|set|remove)-netipaddress$|^set-netipinterface$|^set-dnsclientserveraddress$|^(new|remove)-netroute$/;

function networkSetting(seg: Segment): string | null {
  const n = seg.name;
  const args = lowerArgs(seg);
  if (n === "ip" && IP_OBJECTS.test(args[0] ?? "") && NET_CHANGE.test(args[1] ?? "")) {
    return `Changing network configuration with ip ${args[0]} ${args[1]}`;
  }
  if (n === "ifconfig" && args.length >= 2) return "Changing a network interface with ifconfig";
  if (n === "route" && NET_CHANGE.test(args[0] ?? "")) return "Changing the routing table";
  if (n === "nmcli" && args.some((a) => /^(up|down|modify|delete|add|reload|off)$/.test(a))) {
    return "Changing network connections with nmcli";
  }
  const netshArea = /^(interface|int|winsock|wlan)$/.test(args[0] ?? "");
  if (n === "netsh" && netshArea && args.some((a) => /^(set|add|delete|reset)$/.test(a))) {
    return "Changing network settings with netsh";
  }
  if (NET_CMDLETS.test(n)) return `Changing network settings with ${seg.rawName}`;
  return null;
}

function systemSetting(seg: Segment): string | null {
  const n = seg.name;
  const args = lowerArgs(seg);
  if (/^(hostnamectl|timedatectl|localectl)$/.test(n) && /^set-/.test(args[0] ?? "")) {
    return `Changing machine settings with ${n} ${args[0]}`;
  }
  if (n === "hostname" && operands(seg.args).length > 0 && seg.shell === "bash") {
    return "Changing the host name";
  }
  if ((n === "date" && hasArg(seg.args, ["-s", "--set"])) || n === "set-date") {
    return "Changing the system clock";
  }
  if (n === "setx" && cmdSwitch(seg.args, "m")) {
    return "Changing machine-wide environment variables with setx /M";
  }
  const alternatives = args.some((a) => /^--(set|install|remove|remove-all|config|auto)$/.test(a));
  if (/^(update-alternatives|alternatives)$/.test(n) && alternatives) {
    return "Changing system alternatives";
  }
  if (n === "wmic" && args.some((a) => /^(call|delete|set|create)$/.test(a))) {
    return "Changing the system with wmic";
  }
  return null;
}
