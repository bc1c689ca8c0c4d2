/* Shared between the two files of the legacy test module. */
#ifndef LEGACY_H
#define LEGACY_H
int legacy_set_clock(long sec);
#endif
