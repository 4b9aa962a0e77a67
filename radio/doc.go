// Package radio is the seam between airq's deterministic core and whatever
// carries 802.11 frames: a monitor interface (package inject), the simulator
// (package sim) or an in-memory fake (package radiotest).
//
// Frames cross the seam as raw bytes, radiotap header first, exactly as the
// kernel hands them to an AF_PACKET socket on a monitor interface. The core
// parses the radiotap header itself, so the simulator's frames and echoes go
// through the same parser and matcher as a real radio's.
//
// The metadata types here (RxInfo, TxParams, TxStatus, Rate) are what the
// radiotap codec fills in and reads; they carry no pointers so they can be
// copied freely on the hot path.
package radio
