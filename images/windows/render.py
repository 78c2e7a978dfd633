#!/usr/bin/env python3
"""images/windows/render.py - the files an unattended Windows + SQL Server
image build reads, rendered from a few parameters (images/windows/README.md).

    render.py --windows 2012r2|2019|2022 --sql 2014|2016|2017|2019|2022
              [--edition evaluation|developer|express|KEY] [--windows-key KEY]
              [--image-name NAME] [--firmware bios|efi] [--max-memory MB]
              [--tempdb-files N] [--tempdb-size MB] [--data-growth MB]
              [--log-growth MB] --secrets FILE --out DIR

Writes into DIR (which must not exist): autounattend.xml (Windows Setup's
answer file, XML built with ElementTree, never pasted), ConfigurationFile.ini
(SQL Server Setup's, only the parameters the chosen version knows),
drivebench.json (what setup.ps1 does after SQL Server Setup), secrets.json
(the three passwords; the build deletes it from the guest), and copies of
setup.ps1 and dbdisk.ps1. Exit 0; 2 with one line on bad input.
"""
import argparse
import json
import os
import re
import shutil
import stat
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "urn:schemas-microsoft-com:unattend"
WCM = "http://schemas.microsoft.com/WMIConfig/2002/State"
ET.register_namespace("", NS)
ET.register_namespace("wcm", WCM)

# The Windows Server releases the recipe knows: the install.wim image Setup
# picks by default (Standard with the desktop; --image-name overrides) and
# the SQL Server versions Microsoft supports on it.
WINDOWS = {
    "2012r2": {"image": "Windows Server 2012 R2 SERVERSTANDARD",
               "sql": ("2014", "2016", "2017")},
    "2019":   {"image": "Windows Server 2019 SERVERSTANDARD",
               "sql": ("2016", "2017", "2019", "2022")},
    "2022":   {"image": "Windows Server 2022 SERVERSTANDARD",
               "sql": ("2017", "2019", "2022")},
}
# SQL Server versions: the instance folder's MSSQLnn, and from which version
# Setup takes each of the parameters below (an unknown one fails Setup).
SQL = {"2014": 12, "2016": 13, "2017": 14, "2019": 15, "2022": 16}
SINCE = {
    "SQLSVCINSTANTFILEINIT": 13, "SQLTEMPDBFILECOUNT": 13,
    "SQLTEMPDBFILESIZE": 13, "SQLTEMPDBFILEGROWTH": 13,
    "SQLTEMPDBLOGFILESIZE": 13, "SQLTEMPDBLOGFILEGROWTH": 13,
    "SUPPRESSPRIVACYSTATEMENTNOTICE": 14,
    "SQLMAXMEMORY": 15, "SQLMINMEMORY": 15, "USESQLRECOMMENDEDMEMORYLIMITS": 15,
}
# Product keys Setup documents for its free editions (/PID); none given:
# the edition the media defaults to.
EDITION_PID = {"evaluation": "00000-00000-00000-00000-00000",
               "express": "11111-00000-00000-00000-00000",
               "developer": "22222-00000-00000-00000-00000"}
KEY_RE = re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$")
SECRETS = ("admin_password", "sa_password", "drivebench_password")
COMPONENT_ATTRS = {"processorArchitecture": "amd64",
                   "publicKeyToken": "31bf3856ad364e35",
                   "language": "neutral", "versionScope": "nonSxS"}


class Refused(Exception):
    pass


def el(parent, tag, text=None, **attrs):
    e = ET.SubElement(parent, "{%s}%s" % (NS, tag))
    for k, v in attrs.items():
        e.set("{%s}%s" % (WCM, k[4:]) if k.startswith("wcm_") else k, v)
    if text is not None:
        e.text = text
    return e


def component(settings, name):
    return el(settings, "component", name=name, **COMPONENT_ATTRS)


def locales(comp, winpe):
    if winpe:
        el(el(comp, "SetupUILanguage"), "UILanguage", "en-US")
    for tag in ("InputLocale", "SystemLocale", "UILanguage", "UserLocale"):
        el(comp, tag, "en-US")


def partitions(disk, firmware):
    """Windows Setup's disk 0 layout: MBR with one active NTFS partition
    (BIOS), or GPT with EFI system, MSR and Windows partitions (UEFI).
    Returns the Windows partition's number."""
    create = el(disk, "CreatePartitions")
    modify = el(disk, "ModifyPartitions")
    if firmware == "bios":
        layout = [("Primary", None, "NTFS", "Windows", "C", True)]
    else:
        layout = [("EFI", "100", "FAT32", "System", None, False),
                  ("MSR", "16", None, None, None, False),
                  ("Primary", None, "NTFS", "Windows", "C", False)]
    for order, (kind, size, fs, label, letter, active) in enumerate(layout, 1):
        c = el(create, "CreatePartition", wcm_action="add")
        el(c, "Order", str(order))
        el(c, "Type", kind)
        if size:
            el(c, "Size", size)
        else:
            el(c, "Extend", "true")
        if fs is None:
            continue
        m = el(modify, "ModifyPartition", wcm_action="add")
        el(m, "Order", str(len(modify)))
        el(m, "PartitionID", str(order))
        el(m, "Format", fs)
        el(m, "Label", label)
        if letter:
            el(m, "Letter", letter)
        if active:
            el(m, "Active", "true")
    return len(layout)


def unattend(p, secrets):
    root = ET.Element("{%s}unattend" % NS)

    pe = el(root, "settings", **{"pass": "windowsPE"})
    locales(component(pe, "Microsoft-Windows-International-Core-WinPE"), True)
    setup = component(pe, "Microsoft-Windows-Setup")
    disk = el(el(setup, "DiskConfiguration"), "Disk", wcm_action="add")
    el(disk, "DiskID", "0")
    el(disk, "WillWipeDisk", "true")
    windows_partition = partitions(disk, p["firmware"])
    image = el(setup, "ImageInstall")
    os_image = el(image, "OSImage")
    meta = el(el(os_image, "InstallFrom"), "MetaData", wcm_action="add")
    el(meta, "Key", "/IMAGE/NAME")
    el(meta, "Value", p["image_name"])
    to = el(os_image, "InstallTo")
    el(to, "DiskID", "0")
    el(to, "PartitionID", str(windows_partition))
    user = el(setup, "UserData")
    el(user, "AcceptEula", "true")
    el(user, "FullName", "drivebench")
    el(user, "Organization", "drivebench")
    if p["windows_key"]:
        key = el(user, "ProductKey")
        el(key, "Key", p["windows_key"])
        el(key, "WillShowUI", "OnError")

    spec = el(root, "settings", **{"pass": "specialize"})
    shell = component(spec, "Microsoft-Windows-Shell-Setup")
    el(shell, "ComputerName", "DRIVEBENCH-SQL")
    el(shell, "TimeZone", "UTC")

    oobe = el(root, "settings", **{"pass": "oobeSystem"})
    locales(component(oobe, "Microsoft-Windows-International-Core"), False)
    shell = component(oobe, "Microsoft-Windows-Shell-Setup")
    box = el(shell, "OOBE")
    el(box, "HideEULAPage", "true")
    el(box, "HideLocalAccountScreen", "true")
    el(box, "HideOnlineAccountScreens", "true")
    el(box, "HideWirelessSetupInOOBE", "true")
    el(box, "ProtectYourPC", "3")
    el(box, "NetworkLocation", "Other")
    pw = el(el(shell, "UserAccounts"), "AdministratorPassword")
    el(pw, "Value", secrets["admin_password"])
    el(pw, "PlainText", "true")
    # setup.ps1 logs on as Administrator once per stage (SQL Server Setup
    # may ask for a reboot) and turns the automatic logon off at its end
    logon = el(shell, "AutoLogon")
    lpw = el(logon, "Password")
    el(lpw, "Value", secrets["admin_password"])
    el(lpw, "PlainText", "true")
    el(logon, "Enabled", "true")
    el(logon, "LogonCount", "9")
    el(logon, "Username", "Administrator")
    cmds = el(shell, "FirstLogonCommands")
    cmd = el(cmds, "SynchronousCommand", wcm_action="add")
    el(cmd, "Order", "1")
    el(cmd, "Description", "drivebench: SQL Server and the image's settings")
    # the configuration CD's letter is not known in advance: find it by its file
    el(cmd, "CommandLine",
       "cmd /c for %d in (D E F G H I J K L M N O P Q R S T U V W X Y Z) do "
       "@if exist %d:\\drivebench-setup.ps1 powershell -NoProfile "
       "-ExecutionPolicy Bypass -File %d:\\drivebench-setup.ps1 -Media %d:")
    el(cmd, "RequiresUserInput", "false")
    ET.indent(root, space="  ")
    return ET.ElementTree(root)


def ini_value(v):
    if isinstance(v, bool):
        return '"True"' if v else '"False"'
    return '"%s"' % v


def configuration_ini(p):
    """SQL Server Setup's ConfigurationFile.ini: default instance, database
    engine only, mixed authentication, TCP on, the service started by
    dbdisk.ps1 (manual), every database folder on the database disk D:."""
    version = SQL[p["sql"]]
    o = [("ACTION", "Install"), ("FEATURES", "SQLENGINE"),
         ("INSTANCENAME", "MSSQLSERVER"), ("INSTANCEID", "MSSQLSERVER"),
         ("QUIET", True), ("INDICATEPROGRESS", False), ("UPDATEENABLED", False),
         ("ENU", True), ("SUPPRESSPRIVACYSTATEMENTNOTICE", True),
         ("SQLSVCACCOUNT", "NT Service\\MSSQLSERVER"),
         ("SQLSVCSTARTUPTYPE", "Manual"), ("AGTSVCSTARTUPTYPE", "Disabled"),
         ("BROWSERSVCSTARTUPTYPE", "Disabled"),
         ("SQLSYSADMINACCOUNTS", "BUILTIN\\Administrators"),
         ("SECURITYMODE", "SQL"), ("TCPENABLED", "1"), ("NPENABLED", "0"),
         ("SQLCOLLATION", "SQL_Latin1_General_CP1_CI_AS"),
         ("SQLUSERDBDIR", "D:\\data"), ("SQLUSERDBLOGDIR", "D:\\log"),
         ("SQLTEMPDBDIR", "D:\\tempdb"), ("SQLTEMPDBLOGDIR", "D:\\tempdb"),
         ("SQLSVCINSTANTFILEINIT", True),
         ("SQLTEMPDBFILECOUNT", str(p["tempdb_files"])),
         ("SQLTEMPDBFILESIZE", str(p["tempdb_size"])),
         ("SQLTEMPDBFILEGROWTH", "64"),
         ("SQLTEMPDBLOGFILESIZE", str(p["tempdb_size"])),
         ("SQLTEMPDBLOGFILEGROWTH", "64"),
         ("USESQLRECOMMENDEDMEMORYLIMITS", False),
         ("SQLMINMEMORY", "0"), ("SQLMAXMEMORY", str(p["max_memory"]))]
    if p["pid"]:
        o.append(("PID", p["pid"]))
    lines = ["; SQL Server %s Setup, rendered by images/windows/render.py:" % p["sql"],
             "; the passwords are not here (setup.ps1 passes /SAPWD).",
             "[OPTIONS]"]
    for k, v in o:
        if SINCE.get(k, 0) <= version:
            lines.append("%s=%s" % (k, ini_value(v)))
    return "\n".join(lines) + "\n"


def read_secrets(path):
    try:
        st = os.stat(path)
    except OSError as e:
        raise Refused("%s: %s" % (path, e.strerror))
    if not stat.S_ISREG(st.st_mode):
        raise Refused("%s: not a regular file" % path)
    if st.st_mode & 0o077:
        raise Refused("%s: readable by others (mode %04o): chmod 600 it"
                      % (path, st.st_mode & 0o7777))
    if st.st_size > 4096:
        raise Refused("%s: %d bytes, more than a secrets file holds (4096)"
                      % (path, st.st_size))
    found = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            k, sep, v = line.partition("=")
            k = k.strip()
            if not sep or k not in SECRETS:
                raise Refused("%s:%d: expected one of %s = value"
                              % (path, n, ", ".join(SECRETS)))
            found[k] = v.strip()
    for k in SECRETS:
        v = found.get(k, "")
        if not v:
            raise Refused("%s: no %s" % (path, k))
        # Windows' and SQL Server's complexity rules: 8+ characters from
        # three of upper, lower, digit, other
        classes = sum(bool(re.search(r, v)) for r in
                      ("[A-Z]", "[a-z]", "[0-9]", "[^A-Za-z0-9]"))
        if len(v) < 8 or classes < 3:
            raise Refused("%s: %s is too weak for Windows and SQL Server "
                          "(8 characters or more, from three of upper case, "
                          "lower case, digits and others)" % (path, k))
        if '"' in v or "'" in v:
            raise Refused("%s: %s has a quote, which setup.exe's and sqlcmd's "
                          "command lines cannot carry" % (path, k))
    return found


def params(a):
    if a.windows not in WINDOWS:
        raise Refused("--windows: %s is not one of %s" % (a.windows, ", ".join(WINDOWS)))
    if a.sql not in SQL:
        raise Refused("--sql: %s is not one of %s" % (a.sql, ", ".join(SQL)))
    if a.sql not in WINDOWS[a.windows]["sql"]:
        raise Refused("SQL Server %s is not supported on Windows Server %s "
                      "(supported there: %s)" % (a.sql, a.windows,
                                                 ", ".join(WINDOWS[a.windows]["sql"])))
    if a.edition in EDITION_PID:
        pid = EDITION_PID[a.edition]
    elif a.edition == "media":
        pid = None
    elif KEY_RE.match(a.edition):
        pid = a.edition
    else:
        raise Refused("--edition: %s is neither evaluation, developer, express, "
                      "media nor a product key (XXXXX-XXXXX-XXXXX-XXXXX-XXXXX)" % a.edition)
    if a.edition == "developer" and SQL[a.sql] < 13:
        raise Refused("--edition developer: SQL Server %s's Developer edition "
                      "has no documented key; give its product key, or "
                      "--edition media with Developer media" % a.sql)
    if a.windows_key and not KEY_RE.match(a.windows_key):
        raise Refused("--windows-key: expected XXXXX-XXXXX-XXXXX-XXXXX-XXXXX")
    if a.firmware not in ("bios", "efi"):
        raise Refused("--firmware: %s is neither bios nor efi" % a.firmware)
    for name in ("max_memory", "tempdb_files", "tempdb_size", "data_growth", "log_growth"):
        v = getattr(a, name)
        lo, hi = {"max_memory": (512, 4194304), "tempdb_files": (1, 64),
                  "tempdb_size": (8, 1048576), "data_growth": (1, 1048576),
                  "log_growth": (1, 1048576)}[name]
        if not (lo <= v <= hi):
            raise Refused("--%s: %d is outside %d-%d" % (name.replace("_", "-"), v, lo, hi))
    if a.edition == "express" and a.max_memory > 1410:
        raise Refused("--edition express: its buffer pool stops at 1410 MB; "
                      "--max-memory %d would not be what the server uses" % a.max_memory)
    return {"windows": a.windows, "sql": a.sql, "sql_major": SQL[a.sql],
            "edition": a.edition if a.edition in EDITION_PID or a.edition == "media" else "licensed",
            "pid": pid, "windows_key": a.windows_key,
            "image_name": a.image_name or WINDOWS[a.windows]["image"],
            "firmware": a.firmware, "max_memory": a.max_memory,
            "tempdb_files": a.tempdb_files, "tempdb_size": a.tempdb_size,
            "data_growth": a.data_growth, "log_growth": a.log_growth}


def main(argv):
    ap = argparse.ArgumentParser(prog="render.py", add_help=True)
    ap.add_argument("--windows", required=True)
    ap.add_argument("--sql", required=True)
    ap.add_argument("--edition", default="evaluation")
    ap.add_argument("--windows-key", default="")
    ap.add_argument("--image-name", default="")
    ap.add_argument("--firmware", default="bios")
    ap.add_argument("--max-memory", type=int, default=49152)
    ap.add_argument("--tempdb-files", type=int, default=8)
    ap.add_argument("--tempdb-size", type=int, default=1024)
    ap.add_argument("--data-growth", type=int, default=1024)
    ap.add_argument("--log-growth", type=int, default=1024)
    ap.add_argument("--secrets", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    try:
        p = params(a)
        secrets = read_secrets(a.secrets)
        if os.path.lexists(a.out):
            raise Refused("%s exists: give a new folder" % a.out)
        os.mkdir(a.out, 0o700)
    except Refused as e:
        print("render.py: %s" % e, file=sys.stderr)
        return 2
    unattend(p, secrets).write(os.path.join(a.out, "autounattend.xml"),
                               encoding="utf-8", xml_declaration=True)
    with open(os.path.join(a.out, "ConfigurationFile.ini"), "w", encoding="utf-8") as f:
        f.write(configuration_ini(p))
    settings = {k: p[k] for k in ("windows", "sql", "sql_major", "edition",
                                  "max_memory", "tempdb_files", "tempdb_size",
                                  "data_growth", "log_growth")}
    with open(os.path.join(a.out, "drivebench.json"), "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=2, sort_keys=True)
        f.write("\n")
    fd = os.open(os.path.join(a.out, "secrets.json"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(secrets, f, sort_keys=True)
    shutil.copy(os.path.join(HERE, "setup.ps1"), os.path.join(a.out, "drivebench-setup.ps1"))
    shutil.copy(os.path.join(HERE, "dbdisk.ps1"), os.path.join(a.out, "dbdisk.ps1"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
