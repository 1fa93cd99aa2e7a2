/*
 * Reset and the vector table of the Cortex-M3 (ARMv7-M ARM, B1.5.2-3):
 * word 0 the initial main stack pointer, then the handlers of the
 * exceptions 1-15, then the 32 interrupts of the AN385.
 */
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t __stack_top[], __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];

int main(void);
void board_reset(void);
void k__pendsv(void);
void k__timer_irq(void);

void board_reset(void)
{
	memcpy(__data_start, __data_load,
	       (size_t)((char *)__data_end - (char *)__data_start));
	memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
	board_exit(main());
}

/* A fault or an interrupt nobody asked for ends the run. */
static void unexpected(void)
{
	uint32_t ipsr;

	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	board_puts("fault: exception ");
	board_put_u64(ipsr & 0x1FFu);
	board_puts("\n");
	board_exit(99);
}

static void systick(void)
{
	board_systick_wrap();
}

#define NR_VECTORS (16 + 32)

__attribute__((section(".vectors"), used))
static void (*const vectors[NR_VECTORS])(void) = {
	[0] = (void (*)(void))(uintptr_t)__stack_top,
	[1] = board_reset,
	[2 ... 13] = unexpected, /* NMI, faults, SVCall, DebugMonitor */
	[14] = k__pendsv,
	[15] = systick,
	[16 ... 16 + BOARD_IRQ_TIMER0 - 1] = unexpected,
	[16 + BOARD_IRQ_TIMER0] = k__timer_irq,
	[16 + BOARD_IRQ_TIMER0 + 1 ... NR_VECTORS - 1] = unexpected,
};
