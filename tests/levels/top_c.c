/* Fixture of the library_levels test (see cycle_a.c): calls down only. */
int levels_a(int n);
int levels_c(int n);

int levels_c(int n)
{
	return levels_a(n);
}
