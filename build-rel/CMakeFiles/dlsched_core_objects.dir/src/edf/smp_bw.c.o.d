CMakeFiles/dlsched_core_objects.dir/src/edf/smp_bw.c.o: \
 /work/main/src/edf/smp_bw.c /usr/include/stdc-predef.h \
 /work/main/src/edf/smp_impl.h /work/main/include/dlsched/smp.h \
 /work/main/include/dlsched/cpumask.h /work/main/include/dlsched/common.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdbool.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h /usr/include/stdint.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
 /usr/include/x86_64-linux-gnu/bits/wchar.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
 /work/main/build-rel/include/dlsched/config.h \
 /work/main/include/dlsched/sched.h /work/main/include/dlsched/types.h \
 /work/main/include/dlsched/rbtree.h /work/main/src/atomic_impl.h \
 /usr/include/atomic_ops.h /usr/include/atomic_ops/ao_version.h \
 /usr/include/assert.h /usr/include/atomic_ops/sysdeps/gcc/x86.h \
 /usr/include/atomic_ops/sysdeps/gcc/generic.h \
 /usr/include/atomic_ops/sysdeps/test_and_set_t_is_char.h \
 /usr/include/atomic_ops/sysdeps/gcc/generic-small.h \
 /usr/include/atomic_ops/sysdeps/gcc/generic-arithm.h \
 /usr/include/atomic_ops/generalize.h \
 /usr/include/atomic_ops/generalize-small.h \
 /usr/include/atomic_ops/generalize-arithm.h /work/main/src/edf/bw_impl.h \
 /work/main/src/cbs/admission_impl.h /work/main/src/internal.h \
 /work/main/src/math128/math128_impl.h \
 /work/main/include/dlsched/math128.h /work/main/src/cbs/grub_impl.h \
 /work/main/src/edf/cpudl.h /work/main/src/edf/sched_impl.h
