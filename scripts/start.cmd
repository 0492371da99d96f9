@echo off
rem Windows launcher: a fresh temporary manifest from the current bindings on every run, then start i.
setlocal
set "HERE=%~dp0"
for %%C in (init doctor sessions worker start --runtime --version -V --help -h help) do (
  if /I "%~1"=="%%C" ( "%HERE%i.exe" %* & exit /b %ERRORLEVEL% )
)
set "MANIFEST=%TEMP%\i-manifest-%RANDOM%%RANDOM%.json"
"%HERE%i.exe" --runtime manifest > "%MANIFEST%" || exit /b 2
"%HERE%i.exe" %* --manifest "%MANIFEST%"
set STATUS=%ERRORLEVEL%
del "%MANIFEST%" >nul 2>&1
exit /b %STATUS%
