// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/string.h>
#include "du.h"

size_t du_str_len(const char *s)
{
	char tmp[32];

	strscpy(tmp, s, sizeof(tmp));
	return strnlen(tmp, sizeof(tmp)) + (memchr(tmp, 0, sizeof(tmp)) != NULL);
}
