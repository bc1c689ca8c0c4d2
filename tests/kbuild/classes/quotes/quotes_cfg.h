/* The module's configuration header, read first as "quotes_cfg.h"
 * (found by -I, as <quotes_cfg.h> after it). */
#ifndef QUOTES_CFG_H
#define QUOTES_CFG_H
#define QUOTES_GREETING "hello"
#endif
