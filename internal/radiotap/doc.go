// Package radiotap encodes and decodes the radiotap headers that sit in front
// of every 802.11 frame on a Linux monitor interface.
//
// Parse reads what the kernel delivers: received frames (RX info) and the
// TX-status echoes mac80211 returns for injected frames (TX_FLAGS present).
// AppendTx writes the header mac80211 honours on injection. AppendRx and
// AppendEcho reproduce, byte for byte, the layouts mac80211 itself produces,
// so that a simulated radio hands the core exactly what a real one would.
//
// An echo comes back for every frame sent, so Parse reads mac80211's echo
// layouts at fixed offsets (echo.go) and walks the presence words, set bits only, for
// anything else; FuzzEchoLayout holds the two to the same fields.
//
// Nothing here allocates: Parse fills caller-owned structs and the encoders
// append to caller-owned buffers.
package radiotap
