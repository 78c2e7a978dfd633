# images/windows/setup.ps1 - finishes the image after Windows Setup: run at
# the first logon (autounattend.xml's FirstLogonCommands) from the
# configuration CD as drivebench-setup.ps1, then again after each reboot it
# asks for (RunOnce), until the image is done and powered off.
#
# Stages (C:\drivebench\stage holds the next one):
#   install   the database disk (dbdisk.ps1 -NoStart: D: formatted 64 KiB),
#             SQL Server Setup with ConfigurationFile.ini; a reboot if Setup
#             asks for one (exit code 3010)
#   configure TCP 1433, instant file initialization (2014: the service's
#             SeManageVolumePrivilege), max server memory, tempdb's files on
#             D: (every file, pre-sized, fixed growth; 2014 gets its extra
#             files here), model's fixed growth, the drivebench login, the
#             firewall, Defender exclusions, no scheduled retrim, no
#             Windows Update, the dbdisk task; then the pending-reboot check
#   seal      automatic logon off, the answer file and the secrets deleted,
#             "done" on COM1, power off
# Every step's line goes to COM1 (images/windows/build.sh reads it from the
# serial log) and to C:\drivebench\setup.log; a failure writes
# "drivebench-image: failed: ..." and powers off, so the build ends at once.
param([string]$Media = '')
$ErrorActionPreference = 'Stop'
$dir = 'C:\drivebench'
New-Item -ItemType Directory -Force $dir | Out-Null

function Say([string]$m) {
  $line = "drivebench-image: $m"
  Add-Content -Path "$dir\setup.log" -Value ("{0:u} {1}" -f (Get-Date), $line)
  try {
    $port = New-Object System.IO.Ports.SerialPort 'COM1', 115200
    $port.Open(); $port.WriteLine($line); $port.Close()
  } catch { }
}
trap {
  Say ("failed: " + ($_ | Out-String).Trim())
  Stop-Computer -Force
  exit 1
}

# the first run copies what it needs off the CD: later stages run from C:
if ($Media) {
  foreach ($f in 'drivebench-setup.ps1', 'dbdisk.ps1', 'ConfigurationFile.ini',
                 'drivebench.json', 'secrets.json') {
    Copy-Item -Force "$Media\$f" "$dir\$f"
  }
  & icacls.exe "$dir\secrets.json" /inheritance:r /grant:r 'Administrators:F' 'SYSTEM:F' /Q | Out-Null
  Set-Content "$dir\stage" 'install'
}
$cfg = Get-Content "$dir\drivebench.json" -Raw | ConvertFrom-Json
$sec = Get-Content "$dir\secrets.json" -Raw | ConvertFrom-Json
$stage = (Get-Content "$dir\stage").Trim()
$inst = "MSSQL$($cfg.sql_major).MSSQLSERVER"
$reg = "HKLM:\SOFTWARE\Microsoft\Microsoft SQL Server\$inst\MSSQLServer"

function Again([string]$next) {
  Set-Content "$dir\stage" $next
  Set-ItemProperty 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\RunOnce' -Name drivebench `
    -Value "powershell.exe -NoProfile -ExecutionPolicy Bypass -File $dir\drivebench-setup.ps1"
  Say "reboot before stage $next"
  Restart-Computer -Force
  exit 0
}

function Sql([string]$q) {
  & sqlcmd.exe -S 127.0.0.1 -E -b -Q $q
  if ($LASTEXITCODE -ne 0) { throw "sqlcmd exited $LASTEXITCODE on: $q" }
}

function PendingReboot {
  (Test-Path 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Component Based Servicing\RebootPending') -or
  (Test-Path 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\WindowsUpdate\Auto Update\RebootRequired')
}

if ($stage -eq 'install') {
  Say "stage install: Windows Server $($cfg.windows), SQL Server $($cfg.sql) ($($cfg.edition))"
  & powershell.exe -NoProfile -ExecutionPolicy Bypass -File "$dir\dbdisk.ps1" -NoStart
  if ($LASTEXITCODE -ne 0) { throw "dbdisk.ps1 -NoStart exited $LASTEXITCODE (C:\drivebench\dbdisk.log)" }
  $setup = Get-PSDrive -PSProvider FileSystem |
    ForEach-Object { Join-Path $_.Root 'setup.exe' } |
    Where-Object { (Test-Path $_) -and (Test-Path (Join-Path (Split-Path $_) 'x64')) } |
    Select-Object -First 1
  if (-not $setup) { throw 'no SQL Server media (setup.exe beside x64\) on any drive' }
  Say "SQL Server Setup: $setup"
  $p = Start-Process -FilePath $setup -Wait -PassThru -ArgumentList @(
    "/ConfigurationFile=$dir\ConfigurationFile.ini", '/IACCEPTSQLSERVERLICENSETERMS',
    "/SAPWD=`"$($sec.sa_password)`"")
  if ($p.ExitCode -eq 3010) { Again 'configure' }
  if ($p.ExitCode -ne 0) {
    throw "SQL Server Setup exited $($p.ExitCode) (its logs: C:\Program Files\Microsoft SQL Server\*\Setup Bootstrap\Log)"
  }
  Set-Content "$dir\stage" 'configure'
  $stage = 'configure'
}

if ($stage -eq 'configure') {
  Say 'stage configure'
  # TCP on a static 1433 on every address (the host forward's target)
  $tcp = "$reg\SuperSocketNetLib\Tcp"
  Set-ItemProperty $tcp -Name Enabled -Value 1
  Set-ItemProperty "$tcp\IPAll" -Name TcpPort -Value '1433'
  Set-ItemProperty "$tcp\IPAll" -Name TcpDynamicPorts -Value ''
  Set-ItemProperty $reg -Name LoginMode -Value 2
  if ($cfg.sql_major -lt 13) {
    # SQL Server 2014's Setup has no SQLSVCINSTANTFILEINIT: the same right by hand
    $sid = (New-Object System.Security.Principal.NTAccount 'NT SERVICE\MSSQLSERVER').Translate(
      [System.Security.Principal.SecurityIdentifier]).Value
    $inf = "$dir\ifi.inf"; $db = "$dir\ifi.sdb"
    & secedit.exe /export /cfg $inf /areas USER_RIGHTS | Out-Null
    $rights = Get-Content $inf
    $line = $rights | Where-Object { $_ -like 'SeManageVolumePrivilege*' }
    if ($line) { $rights = $rights -replace '^SeManageVolumePrivilege = (.*)$', "SeManageVolumePrivilege = `$1,*$sid" }
    else { $rights = $rights -replace '^\[Privilege Rights\]$', "[Privilege Rights]`r`nSeManageVolumePrivilege = *$sid" }
    Set-Content $inf $rights -Encoding Unicode
    & secedit.exe /configure /db $db /cfg $inf /areas USER_RIGHTS | Out-Null
    if ($LASTEXITCODE -ne 0) { throw "secedit could not grant SeManageVolumePrivilege ($LASTEXITCODE)" }
    Remove-Item $inf, $db
  }
  & powershell.exe -NoProfile -ExecutionPolicy Bypass -File "$dir\dbdisk.ps1" -NoStart
  foreach ($d in 'D:\data', 'D:\log', 'D:\tempdb') {
    & icacls.exe $d /grant 'NT SERVICE\MSSQLSERVER:(OI)(CI)F' /Q | Out-Null
  }
  Restart-Service MSSQLSERVER -Force
  Start-Sleep 5
  Sql "EXEC sp_configure 'show advanced options', 1; RECONFIGURE; EXEC sp_configure 'max server memory (MB)', $($cfg.max_memory); RECONFIGURE;"
  # every tempdb file on D:, the same size and a fixed growth (2016+ Setup
  # made them; 2014 has one data file: the others are added)
  $size = $cfg.tempdb_size
  $q = "DECLARE @s nvarchar(max) = N''; SELECT @s = @s + N'ALTER DATABASE tempdb MODIFY FILE (NAME = ' + QUOTENAME(name) + N', FILENAME = ''D:\tempdb\' + name + CASE type WHEN 1 THEN N'.ldf' ELSE N'.mdf' END + N''', SIZE = $($size)MB, FILEGROWTH = 64MB); ' FROM tempdb.sys.database_files; EXEC (@s);"
  Sql $q
  for ($n = 2; $n -le $cfg.tempdb_files; $n++) {
    Sql "IF NOT EXISTS (SELECT 1 FROM tempdb.sys.database_files WHERE name = N'temp$n') ALTER DATABASE tempdb ADD FILE (NAME = temp$n, FILENAME = 'D:\tempdb\temp$n.ndf', SIZE = $($size)MB, FILEGROWTH = 64MB);"
  }
  # a database made from model grows by fixed steps, never 1 MB or 10 %
  Sql "ALTER DATABASE model MODIFY FILE (NAME = modeldev, FILEGROWTH = $($cfg.data_growth)MB); ALTER DATABASE model MODIFY FILE (NAME = modellog, FILEGROWTH = $($cfg.log_growth)MB);"
  Sql "IF SUSER_ID(N'drivebench') IS NULL CREATE LOGIN drivebench WITH PASSWORD = N'$($sec.drivebench_password)', CHECK_POLICY = OFF; ALTER SERVER ROLE sysadmin ADD MEMBER drivebench;"
  Stop-Service MSSQLSERVER
  Set-Service MSSQLSERVER -StartupType Manual

  # the user-mode network is an unidentified network: the Public profile
  if (-not (Get-NetFirewallRule -DisplayName 'SQL Server 1433' -ErrorAction SilentlyContinue)) {
    New-NetFirewallRule -DisplayName 'SQL Server 1433' -Direction Inbound -Protocol TCP `
      -LocalPort 1433 -Action Allow -Profile Public,Private,Domain | Out-Null
  }
  if (Get-Command Add-MpPreference -ErrorAction SilentlyContinue) {
    # Windows Defender (2016+) scans no database file and no SQL Server process
    Add-MpPreference -ExclusionPath 'D:\data', 'D:\log', 'D:\tempdb'
    Add-MpPreference -ExclusionExtension 'mdf', 'ldf', 'ndf'
    Add-MpPreference -ExclusionProcess "C:\Program Files\Microsoft SQL Server\$inst\MSSQL\Binn\sqlservr.exe"
    Say 'Defender: database folders, files and sqlservr.exe excluded'
  } else { Say 'Defender: not installed (Windows Server 2012 R2)' }
  # no retrim or defragmentation of the drive under test during a run
  Get-ScheduledTask -TaskPath '\Microsoft\Windows\Defrag\' -ErrorAction SilentlyContinue |
    Disable-ScheduledTask | Out-Null
  Set-Service wuauserv -StartupType Disabled
  & powercfg.exe /setactive 8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c
  Register-ScheduledTask -Force -TaskName drivebench-dbdisk -User SYSTEM -RunLevel Highest `
    -Trigger (New-ScheduledTaskTrigger -AtStartup) `
    -Action (New-ScheduledTaskAction -Execute powershell.exe `
      -Argument "-NoProfile -ExecutionPolicy Bypass -File $dir\dbdisk.ps1") | Out-Null
  if (PendingReboot) { Again 'seal' }
  Set-Content "$dir\stage" 'seal'
  $stage = 'seal'
}

if ($stage -eq 'seal') {
  if (PendingReboot) { throw 'a reboot is still pending after the one setup.ps1 asked for' }
  $lic = Get-CimInstance SoftwareLicensingProduct -Filter "PartialProductKey IS NOT NULL AND Name LIKE 'Windows%'" |
    Select-Object -First 1
  Say ("Windows licence: " + $lic.Description + ", status " + $lic.LicenseStatus)
  $wl = 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Winlogon'
  Set-ItemProperty $wl -Name AutoAdminLogon -Value '0'
  Remove-ItemProperty $wl -Name DefaultPassword -ErrorAction SilentlyContinue
  Remove-Item -Force -ErrorAction SilentlyContinue 'C:\Windows\Panther\unattend.xml', `
    'C:\Windows\Panther\Unattend\unattend.xml', "$dir\secrets.json", "$dir\ConfigurationFile.ini"
  Set-Content "$dir\stage" 'done'
  Say 'done'
  Stop-Computer -Force
}
