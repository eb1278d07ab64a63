/* linalg.h - the small dense linear algebra the lab's fits share
 * (values.c, ladder.c). */
#ifndef LINALG_H
#define LINALG_H

/* Inverts the m x m matrix a (row-major) into inv by Gauss-Jordan with
 * partial pivoting; a is destroyed.  0, or -1 when it is singular. */
int linalg_invert(double *a, double *inv, int m);

#endif
