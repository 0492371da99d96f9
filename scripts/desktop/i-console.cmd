@echo off
rem Desktop launch on Windows (double-click): the console with config_dir\desktop.json when that file
rem exists, else with a fresh manifest generated from the current bindings ("i.exe start --desktop").
rem The window stays open after a failure so its one-line error can be read.
setlocal
cd /d "%USERPROFILE%"
"%~dp0i.exe" start --desktop %*
set "STATUS=%ERRORLEVEL%"
if not "%STATUS%"=="0" pause
exit /b %STATUS%
