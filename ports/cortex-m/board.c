/*
 * Board support for the MPS2 AN385 (see board.h for the sources).
 *
 * The clock: SysTick counts SYSCLK down from 2^24 - 1 and interrupts at
 * each wrap; the wrap handler counts wraps. A read takes the count and the
 * value together with interrupts masked; a wrap that happened since the
 * last count shows as SysTick's pending bit, and the value is read again
 * after it so that both belong to the same side of the wrap.
 */
#include "board.h"

#define REG(a) (*(volatile uint32_t *)(a))

/* System control space (ARMv7-M ARM, B3.2, B3.3, B3.4). */
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)
#define SCB_ICSR REG(0xE000ED04u)
#define SCB_SHPR3 REG(0xE000ED20u)
#define NVIC_ISER0 REG(0xE000E100u)
#define NVIC_ISPR0 REG(0xE000E200u)
#define NVIC_ICPR0 REG(0xE000E280u)
#define ICSR_PENDSVSET (1u << 28)
#define ICSR_PENDSTSET (1u << 26)
#define SYST_ENABLE 1u
#define SYST_TICKINT 2u
#define SYST_CPUCLK 4u
#define SYST_RELOAD 0xFFFFFFu

/* CMSDK APB timer 0 and UART0 (CMSDK TRM; AN385 memory map). */
#define TIMER0_CTRL REG(0x40000000u)
#define TIMER0_VALUE REG(0x40000004u)
#define TIMER0_RELOAD REG(0x40000008u)
#define TIMER0_INTCLEAR REG(0x4000000Cu)
#define TIMER_ENABLE 1u
#define TIMER_IRQEN 8u
#define UART0_DATA REG(0x40004000u)
#define UART0_STATE REG(0x40004004u)
#define UART0_CTRL REG(0x40004008u)
#define UART0_BAUDDIV REG(0x40004010u)
#define UART_TX_FULL 1u
#define UART_TX_EN 1u

/* Wraps of SysTick since board_init(). */
static volatile uint32_t systick_wraps;

void board_init(void)
{
	UART0_BAUDDIV = 16; /* the smallest divider the UART accepts */
	UART0_CTRL = UART_TX_EN;
	/* PendSV lowest, SysTick highest: the context switch runs after
	 * every other handler; timer 0 keeps the reset priority 0. */
	SCB_SHPR3 = (SCB_SHPR3 & 0x0000FFFFu) | (0x00u << 24) | (0xFFu << 16);
	board_timer_stop();
	NVIC_ISER0 = 1u << BOARD_IRQ_TIMER0;
	SYST_CSR = 0;
	SYST_RVR = SYST_RELOAD;
	SYST_CVR = 0; /* any write clears it: counting starts at the reload */
	SYST_CSR = SYST_ENABLE | SYST_TICKINT | SYST_CPUCLK;
}

void board_systick_wrap(void)
{
	systick_wraps++;
}

uint64_t board_clock_ns(void)
{
	uint32_t m = board_irq_save();
	uint32_t w = systick_wraps, v = SYST_CVR;

	if (SCB_ICSR & ICSR_PENDSTSET) {
		v = SYST_CVR;
		w++;
	}
	board_irq_restore(m);
	return (((uint64_t)w << 24) + (SYST_RELOAD - v)) * BOARD_NS_PER_TICK;
}

void board_timer_program(uint32_t ticks)
{
	TIMER0_CTRL = 0;
	TIMER0_INTCLEAR = 1;
	TIMER0_RELOAD = ticks;
	TIMER0_VALUE = ticks;
	TIMER0_CTRL = TIMER_ENABLE | TIMER_IRQEN;
}

void board_timer_stop(void)
{
	TIMER0_CTRL = 0;
	TIMER0_INTCLEAR = 1;
	NVIC_ICPR0 = 1u << BOARD_IRQ_TIMER0;
}

void board_timer_ack(void)
{
	TIMER0_INTCLEAR = 1;
}

void board_timer_pend(void)
{
	NVIC_ISPR0 = 1u << BOARD_IRQ_TIMER0;
}

void board_pend_switch(void)
{
	SCB_ICSR = ICSR_PENDSVSET;
}

void board_puts(const char *s)
{
	for (; *s; s++) {
		while (UART0_STATE & UART_TX_FULL)
			;
		UART0_DATA = (uint8_t)*s;
	}
}

void board_put_u64(uint64_t v)
{
	char buf[21], *p = buf + sizeof(buf) - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	board_puts(p);
}

/* ARM semihosting: operation in r0, parameter block in r1, BKPT 0xAB on
 * M-profile. SYS_EXIT_EXTENDED (0x20) carries an exit status; QEMU
 * returns it as its own. */
void board_exit(int code)
{
	uint32_t block[2] = { 0x20026u /* ADP_Stopped_ApplicationExit */, (uint32_t)code };
	register uint32_t r0 __asm__("r0") = 0x20u;
	register uint32_t *r1 __asm__("r1") = block;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	for (;;)
		__asm__ volatile("wfi");
}
