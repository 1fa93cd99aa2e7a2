/* Fixture of the library_levels test (see cycle_a.c). */
int levels_a(int n);
int levels_b(int n);

int levels_b(int n)
{
	return n > 0 ? levels_a(n - 1) : 1;
}
