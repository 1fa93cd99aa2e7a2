/*
 * The MPS2 AN385 board as the kernel sees it: the Cortex-M3's SysTick as a
 * free-running 64-bit clock, the CMSDK APB timer 0 as a one-shot timer,
 * UART0 for output and ARM semihosting for the exit status.
 *
 * Sources: ARM AN385 (memory map, interrupt numbers: timer 0 is IRQ 8),
 * the ARMv7-M Architecture Reference Manual (SysTick, SCB, NVIC), the
 * Cortex-M System Design Kit TRM (APB timer, APB UART), ARM's Semihosting
 * specification v2 (SYS_EXIT_EXTENDED) and QEMU's hw/arm/mps2.c (25 MHz
 * SYSCLK for the CPU, the timers and the UARTs).
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

/* SYSCLK is 25 MHz: one count of SysTick or of timer 0 is 40 ns. */
#define BOARD_NS_PER_TICK 40u

/* Exception and interrupt numbers of the vector table. */
#define BOARD_IRQ_TIMER0 8

/** Set up SysTick (free-running, 24-bit wrap interrupt), timer 0 and UART0. */
void board_init(void);
/** Nanoseconds since board_init(), in BOARD_NS_PER_TICK steps; any context. */
uint64_t board_clock_ns(void);
/** The SysTick wrap interrupt counts here (vector table). */
void board_systick_wrap(void);
/** Interrupt once, @p ticks counts from now (at least 1); replaces any
 *  earlier programming. */
void board_timer_program(uint32_t ticks);
/** Stop timer 0 and drop an interrupt it left pending. */
void board_timer_stop(void);
/** Acknowledge timer 0's interrupt (its handler calls this first). */
void board_timer_ack(void);
/** Make timer 0's interrupt pending now (an expiry already due). */
void board_timer_pend(void);
/** Request PendSV, the context switch (the lowest priority). */
void board_pend_switch(void);
/** Write to UART0. */
void board_puts(const char *s);
/** Write @p v in decimal to UART0. */
void board_put_u64(uint64_t v);
/** End the emulation with exit status @p code (semihosting). */
void board_exit(int code) __attribute__((noreturn));

/** Mask interrupts (PRIMASK); returns the previous mask for board_irq_restore(). */
static inline uint32_t board_irq_save(void)
{
	uint32_t m;

	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(m) : : "memory");
	return m;
}

/** Restore the mask board_irq_save() returned. */
static inline void board_irq_restore(uint32_t m)
{
	__asm__ volatile("msr primask, %0" : : "r"(m) : "memory");
}

#endif /* BOARD_H */
