/* The forwarder DLL's entry point: nothing to set up (every export is forwarded to advapi32). */
int __stdcall DllMainCRTStartup(void *instance, unsigned long reason, void *reserved) {
  (void)instance;
  (void)reason;
  (void)reserved;
  return 1;
}
