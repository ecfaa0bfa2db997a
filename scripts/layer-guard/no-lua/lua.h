/* SPDX-License-Identifier: MIT */
/* Layer guard (see the Makefile): found first on the include path of every
 * object outside src/lesson/, so including Lua there fails to compile. */
#error "only src/lesson/ includes Lua (the layers of docs/DESIGN.md)"
