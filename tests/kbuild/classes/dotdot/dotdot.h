/* SPDX-License-Identifier: GPL-2.0 */
/* The folder that dotdot.ko's object path goes through
 * (dotdot-y := dotdot/../dotdot_main.o, as Kbuild builds
 * ../staging/echo/echo.o). */
#define DOTDOT_NAME "dotdot"
