package ccm

import "testing"

// benchCCM gives the CCMP sizes: a 13-byte nonce, an 8-byte tag, the
// 22-byte AAD of a QoS data frame and a full-size MSDU.
func benchCCM(b *testing.B, fused bool) (c *CCM, nonce, aad, buf []byte) {
	c = newCCM(b, make([]byte, 16), 13, 8)
	if fused {
		c = newFused(b, make([]byte, 16), 13, 8)
	}
	return c, make([]byte, 13), make([]byte, 22), make([]byte, 1500, 1508)
}

func BenchmarkSeal1500(b *testing.B)      { benchSeal(b, false) }
func BenchmarkSeal1500Fused(b *testing.B) { benchSeal(b, true) }
func BenchmarkOpen1500(b *testing.B)      { benchOpen(b, false) }
func BenchmarkOpen1500Fused(b *testing.B) { benchOpen(b, true) }

func benchSeal(b *testing.B, fused bool) {
	c, nonce, aad, buf := benchCCM(b, fused)
	b.SetBytes(1500)
	b.ReportAllocs()
	for b.Loop() {
		c.Seal(buf[:0], nonce, buf, aad)
	}
}

func benchOpen(b *testing.B, fused bool) {
	c, nonce, aad, buf := benchCCM(b, fused)
	sealed := c.Seal(nil, nonce, buf, aad)
	b.SetBytes(1500)
	b.ReportAllocs()
	for b.Loop() {
		// Out of place, so the sealed frame stays intact between passes.
		if _, err := c.Open(buf[:0], nonce, sealed, aad); err != nil {
			b.Fatal(err)
		}
	}
}
