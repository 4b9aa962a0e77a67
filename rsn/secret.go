package rsn

import (
	"fmt"
	"io"
	"log/slog"
)

const redacted = "[redacted]"

// PMK is a pairwise master key (256 bits for the PSK AKMs).
type PMK [32]byte

// Key is a 128-bit key of the hierarchy: a KCK, KEK, TK (CCMP-128), GTK or
// IGTK (BIP-CMAC-128).
type Key [16]byte

// PTK is a pairwise transient key split into its parts.
type PTK struct {
	KCK Key // EAPOL-Key MIC
	KEK Key // EAPOL-Key Key Data encryption
	TK  Key // the pairwise cipher's temporal key
}

// KeyBytes is key material of the length a frame gave it: the GTK and
// IGTK of a decoded Key Data field, which alias the decrypted bytes.
type KeyBytes []byte

func (PMK) String() string               { return redacted }
func (PMK) GoString() string             { return redacted }
func (PMK) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (PMK) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (PMK) MarshalText() ([]byte, error) { return []byte(redacted), nil }
func (Key) String() string               { return redacted }
func (Key) GoString() string             { return redacted }
func (Key) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (Key) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (Key) MarshalText() ([]byte, error) { return []byte(redacted), nil }
func (PTK) String() string               { return redacted }
func (PTK) GoString() string             { return redacted }
func (PTK) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (PTK) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (PTK) MarshalText() ([]byte, error) { return []byte(redacted), nil }

func (KeyBytes) String() string               { return redacted }
func (KeyBytes) GoString() string             { return redacted }
func (KeyBytes) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (KeyBytes) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (KeyBytes) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// Clear overwrites the key with zeros (best effort: Go may have copied it).
func (k *Key) Clear() { *k = Key{} }

// Clear overwrites the PMK with zeros.
func (k *PMK) Clear() { *k = PMK{} }

// Clear overwrites the PTK with zeros.
func (k *PTK) Clear() { *k = PTK{} }
