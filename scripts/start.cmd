@echo off
rem Windows launcher: "i.exe start ARGS" generates a fresh temporary manifest (in a new, uniquely named
rem temporary directory) from the current profile and bindings, honours --profile, runs with it and
rem removes it. Nothing is expanded inside a ( ) block here, so the exit code returned is the real one.
setlocal
"%~dp0i.exe" start %*
exit /b %ERRORLEVEL%
