/* linalg.c - Gauss-Jordan inversion for the lab's fits (linalg.h). */
#include "linalg.h"

#include <math.h>

int linalg_invert(double *a, double *inv, int m)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            inv[i * m + j] = i == j;
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[piv * m + c]))
                piv = r;
        if (fabs(a[piv * m + c]) < 1e-12)
            return -1;
        for (int j = 0; j < m; j++) {
            double t = a[c * m + j];
            a[c * m + j] = a[piv * m + j];
            a[piv * m + j] = t;
            t = inv[c * m + j];
            inv[c * m + j] = inv[piv * m + j];
            inv[piv * m + j] = t;
        }
        double d = a[c * m + c];
        for (int j = 0; j < m; j++) {
            a[c * m + j] /= d;
            inv[c * m + j] /= d;
        }
        for (int r = 0; r < m; r++) {
            double f = a[r * m + c];
            if (r == c || f == 0)
                continue;
            for (int j = 0; j < m; j++) {
                a[r * m + j] -= f * a[c * m + j];
                inv[r * m + j] -= f * inv[c * m + j];
            }
        }
    }
    return 0;
}
