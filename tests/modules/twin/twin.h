/* Shared between the files of the twin test module. */
#ifndef TWIN_H
#define TWIN_H
int a_parse(void);
int b_parse(void);
#endif
