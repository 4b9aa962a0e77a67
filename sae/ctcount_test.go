package sae

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"testing"
)

// hitAt reports, the plain way, whether the hunting-and-pecking seed of
// counter is a hit for password (test code: it branches at will).
func hitAt(t *testing.T, g *Group, password []byte, counter int) bool {
	qr, qnr, err := g.randomQRs(rand.Reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed := hmacSum(sha256.New, maxMin(apMAC, staMAC), password, []byte{byte(counter)})
	res, _, err := g.testSeed(seed, qr, qnr, rand.Reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res == 1
}

// findPassword returns a password for which want(password) holds.
func findPassword(t *testing.T, want func([]byte) bool) []byte {
	for i := range 1000 {
		pw := fmt.Appendf(nil, "password-%04d", i)
		if want(pw) {
			return pw
		}
	}
	t.Fatal("no such password in 1000")
	return nil
}

// TestHuntAndPeckSameWork counts, per iteration of the hunting-and-pecking
// loop, the field exponentiations, multiplications and additions, the
// constant-time selects and the octets they move, the HMACs and the
// random draws, for a password found at iteration 1 and one found at
// iteration 40 (a real hit at 40, the earlier hits turned into misses
// through the same constant-time path), in each group: every iteration
// does the same work, and both run 40 iterations. Past 40 the loop runs
// until the first hit, and no further.
func TestHuntAndPeckSameWork(t *testing.T) {
	for _, id := range []uint16{19, 20, 21} {
		g, _ := GroupByID(id)
		first := findPassword(t, func(pw []byte) bool { return hitAt(t, g, pw, 1) })
		fortieth := findPassword(t, func(pw []byte) bool { return hitAt(t, g, pw, 40) && len(pw) == len(first) })
		var runs [2]*meter
		for i, c := range []struct {
			pw   []byte
			miss func(int) bool
		}{{first, nil}, {fortieth, func(n int) bool { return n < 40 }}} {
			m := &meter{iter: []opCounts{}, miss: c.miss}
			if _, err := g.pweHuntAndPeck(apMAC, staMAC, c.pw, rand.Reader, m, nil); err != nil {
				t.Fatalf("group %d: %v", id, err)
			}
			runs[i] = m
		}
		for i, m := range runs {
			if len(m.iter) != minIterations {
				t.Fatalf("group %d run %d: %d iterations, want %d", id, i, len(m.iter), minIterations)
			}
		}
		want := runs[0].iter[0]
		if want[opExp] != 1 || want[opMul] == 0 || want[opSelect] == 0 || want[opHMAC] == 0 {
			t.Fatalf("group %d: counts %v do not measure the loop", id, want)
		}
		for i, m := range runs {
			for n, c := range m.iter {
				if c != want {
					t.Errorf("group %d run %d iteration %d: %v, want %v", id, i, n+1, c, want)
				}
			}
		}

		// Misses forced up to 45: the loop runs to the first real hit
		// after 45 and stops there.
		m := &meter{iter: []opCounts{}, miss: func(n int) bool { return n <= 45 }}
		if _, err := g.pweHuntAndPeck(apMAC, staMAC, first, rand.Reader, m, nil); err != nil {
			t.Fatal(err)
		}
		hit := 46
		for !hitAt(t, g, first, hit) {
			hit++
		}
		if len(m.iter) != hit {
			t.Errorf("group %d: past 40: %d iterations, first hit after 45 at %d", id, len(m.iter), hit)
		}
	}
}

// TestHuntAndPeckFortiethIsPWE: the element found with the earlier hits
// turned into misses is the point of the 40th seed, a valid point.
func TestHuntAndPeckFortiethIsPWE(t *testing.T) {
	g, _ := GroupByID(19)
	pw := findPassword(t, func(pw []byte) bool { return hitAt(t, g, pw, 40) })
	m := &meter{miss: func(n int) bool { return n < 40 }}
	pwe, err := g.pweHuntAndPeck(apMAC, staMAC, pw, rand.Reader, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed := hmacSum(sha256.New, maxMin(apMAC, staMAC), pw, []byte{40})
	x := kdf(sha256.New, seed, "SAE Hunting and Pecking", g.prime, g.bits)
	if got := elementBytes(pwe)[:32]; string(got) != string(x) {
		t.Fatalf("x %x, want %x", got, x)
	}
}
