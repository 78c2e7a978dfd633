# images/windows/dbdisk.ps1 - run as SYSTEM at every boot by the scheduled
# task drivebench-dbdisk (setup.ps1 installs it as C:\drivebench\dbdisk.ps1).
#
# Finds the disk whose serial is `dbdisk` (the database disk drivebench puts
# on the drive under test), brings it online (the SAN policy leaves new
# disks offline), formats a blank one (GPT, NTFS, 64 KiB clusters, D:),
# makes D:\data, D:\log and D:\tempdb with full control for the SQL Server
# service's account (NT SERVICE\MSSQLSERVER: without it SQL Server cannot
# create tempdb there, errors 5123 and 17204), starts SQL Server, then
# creates sbtest on a blank disk or attaches the one a restored disk holds.
# -NoStart: the disk and its folders only (setup.ps1, before SQL Server
# exists). Its log: C:\drivebench\dbdisk.log.
param([switch]$NoStart)
$ErrorActionPreference = 'Stop'
$log = 'C:\drivebench\dbdisk.log'
function Say([string]$m) { Add-Content -Path $log -Value ("{0:u} {1}" -f (Get-Date), $m) }
trap { Say ("failed: " + $_); exit 1 }

$disk = $null
for ($i = 0; $i -lt 120 -and -not $disk; $i++) {
  $disk = Get-Disk | Where-Object { $_.SerialNumber -and $_.SerialNumber.Trim() -eq 'dbdisk' }
  if (-not $disk) { Start-Sleep 1 }
}
if (-not $disk) { throw 'no disk with serial dbdisk' }
if ($disk.IsOffline) { Set-Disk -Number $disk.Number -IsOffline $false }
if ($disk.IsReadOnly) { Set-Disk -Number $disk.Number -IsReadOnly $false }
$blank = $disk.PartitionStyle -eq 'RAW'
if ($blank) {
  Initialize-Disk -Number $disk.Number -PartitionStyle GPT
  $part = New-Partition -DiskNumber $disk.Number -UseMaximumSize -DriveLetter D
  Format-Volume -Partition $part -FileSystem NTFS -AllocationUnitSize 65536 `
    -NewFileSystemLabel dbdisk -Confirm:$false | Out-Null
  Say "disk $($disk.Number): blank, formatted NTFS 64 KiB as D:"
} else {
  $part = Get-Partition -DiskNumber $disk.Number | Where-Object Type -eq 'Basic'
  if ($part.DriveLetter -ne 'D') { $part | Set-Partition -NewDriveLetter D }
  $max = (Get-PartitionSupportedSize -DiskNumber $disk.Number -PartitionNumber $part.PartitionNumber).SizeMax
  if ($part.Size -lt $max) { Resize-Partition -DiskNumber $disk.Number -PartitionNumber $part.PartitionNumber -Size $max }
  Say "disk $($disk.Number): D: as found"
}
New-Item -ItemType Directory -Force D:\data, D:\log, D:\tempdb | Out-Null
if ($NoStart) { exit 0 }

# the service's virtual account exists once SQL Server is installed
foreach ($d in 'D:\data', 'D:\log', 'D:\tempdb') {
  & icacls.exe $d /grant 'NT SERVICE\MSSQLSERVER:(OI)(CI)F' /Q | Out-Null
  if ($LASTEXITCODE -ne 0) { throw "icacls $d failed ($LASTEXITCODE)" }
}
Start-Service MSSQLSERVER
$ok = $false
for ($i = 0; $i -lt 60 -and -not $ok; $i++) {
  & sqlcmd.exe -S 127.0.0.1 -E -b -Q 'SELECT 1' | Out-Null
  $ok = $LASTEXITCODE -eq 0
  if (-not $ok) { Start-Sleep 2 }
}
if (-not $ok) { throw 'SQL Server did not answer within 120 s' }
if ($blank) {
  # drivebench (prepare) sizes sbtest's files itself; this is the empty database
  & sqlcmd.exe -S 127.0.0.1 -E -b -Q "CREATE DATABASE sbtest ON (NAME = sbtest, FILENAME = 'D:\data\sbtest.mdf') LOG ON (NAME = sbtest_log, FILENAME = 'D:\log\sbtest_log.ldf')"
} elseif (Test-Path D:\data\sbtest.mdf) {
  & sqlcmd.exe -S 127.0.0.1 -E -b -Q "IF DB_ID('sbtest') IS NULL CREATE DATABASE sbtest ON (FILENAME = 'D:\data\sbtest.mdf'), (FILENAME = 'D:\log\sbtest_log.ldf') FOR ATTACH"
}
if ($LASTEXITCODE -ne 0) { throw "sbtest: sqlcmd exited $LASTEXITCODE" }
Say 'SQL Server started, sbtest ready'
