// Package answered remembers, for a short window, which addresses were
// answered: a fixed ring of the latest answers with a hash index over it.
//
// An AP that drops an authenticated station when its response's ACK never
// comes (the flood-resistant choice: a forged address holds nothing) still
// wants to accept that station's next frame when the ACK, not the
// response, was lost. Open System frames carry nothing to echo, so the AP
// remembers whom it answered. The record is sized as the rate at which
// answers can be made (the reply budget) times the window: answers come
// in time order and the oldest is overwritten first, so a flood within the
// budget cannot evict an entry younger than the window, and memory is
// fixed whatever the flood.
//
// A Record is one BSS's: several networks on one radio, or SAE's replies
// beside Open System's, each keep their own (New per BSS or per exchange),
// so no key carries a BSS and no BSS's flood evicts another's entries.
// Time is an argument; Add, Has and Forget allocate nothing. A Record is
// not safe for concurrent use.
package answered
