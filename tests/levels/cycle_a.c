/* Fixture of the library_levels test: a.c and b.c call each other, a
 * cycle tools/check-levels.sh must name; c.c only calls down. */
int levels_b(int n);
int levels_a(int n);

int levels_a(int n)
{
	return n > 0 ? levels_b(n - 1) : 0;
}
