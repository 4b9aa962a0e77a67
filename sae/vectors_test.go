package sae

import (
	"bufio"
	"bytes"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"filippo.io/bigmod"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// IEEE Std 802.11-2020 Annex J.10 (SAE test vectors), as hostap's
// src/common/common_module_tests.c sae_tests() carries them (hunting and
// pecking, commit, KCK, PMK, PMKID; H2E's PWE) and as the standard prints
// the hash-to-element PT.
var (
	j10Addr1    = MAC{0x4d, 0x3f, 0x2f, 0xff, 0xe3, 0x87}
	j10Addr2    = MAC{0xa5, 0xd8, 0xaa, 0x95, 0x8e, 0x3c}
	j10Addr1b   = MAC{0x00, 0x09, 0x5b, 0x66, 0xec, 0x1e}
	j10Addr2b   = MAC{0x00, 0x0b, 0x6b, 0xd9, 0x02, 0x46}
	j10SSID     = []byte("byteme")
	j10Password = []byte("mekmitasdigoat")
	j10PWID     = []byte("psk4internet")
)

const (
	j10HnPPWE = "da6eb7b06a1ac5624974f90afdd6a8e9d5722634cf987c34defc91a9874e5658" +
		"f4fefd130bd5be08fe68af3e4a290272ec065fd3671f3c25bf8ec419ddc9b822"
	j10Rand        = "992465fd3daa3c60aa6565b7f62a2a7f2e12dd12f198faf4fbed89d7ff1ace94"
	j10Mask        = "9507a90f777a044d6a0830b91ea3d5dd70bece44e1acffb86983b5e1bf9fb322"
	j10LocalCommit = "13002e2c0f0db52440ad146d967114ce005ce1eab0aa2c2e5c2871b774f6c2575c65d5ad9e00829707aa36ba8b859738" +
		"fc961d08243505f47c035376d7ac4bc8d7b95083bf43827d0fc31ed778dd3671fd21a46d1091d64b6f9a1e1272621325dbe1"
	j10PeerCommit = "1300591b96f3397fb945100848e7b550543b6720d88337ee93fc49fd6df7e08b5223e71b9bb048d3873f20556953a96c" +
		"91536fd8ee6ca9b4a68a148b056a909be03e83ae208f60f8ef5537858074db06687032399862999b511e0a1552a5fea317c2"
	j10KCK   = "1e733f6d9bd53256287304338831b09a39406d121017073a5c30db36f36cb81a"
	j10PMK   = "4e4dfab1a2dd8ac1a91790f953faaa452ae5c6873ab75b63605ba663f8a7fe59"
	j10PMKID = "8747a600eea3f9f22475df58ca1e5498"
	j10PT    = "b6e38c98750c684b5d17c3d8c9a4100b39931279187ca6cced5f37ef46ddfa97" +
		"5687e972e50f73e3898861e7edad21bea7d5f622df88243bb804920ae8e647fa"
	j10H2EPWE = "c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e" +
		"73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0"
	// The standard's intermediate H2E values (as iwd's unit/test-sae.c
	// test_pt_pwe carries them): pwd-seed, u1, u2, P1, P2 and val.
	j10Seed = "3bd53fe9223dc0280fbfce17d7a3564064e20f48c6ec72246ce367b5569a22af"
	j10U1   = "dc941bc3c6a2b4948b6c61d55590ecb1f0c51c4b1bebaff677e593698d5a53c6"
	j10U2   = "1b8375a518bc21396ad6a65e5597e0bf80d793b6d66e2534a6e7dfe3ee22616f"
	j10P1   = "a07c260764a13445ff8cd97c5acc644e7119bde51bad42583eed6f4109639e6b" +
		"3bdc8df0d32337936c74df604933a454142251c53c576c0351b28deaf9428d7e"
	j10P2 = "72cd2a967a837fea5051f0133db46227775ba09f7b6dfb99ae7a8ef22c7d34a0" +
		"864390d797d352b368d311af515bde116fe54459fec867ee18a8a1619ca3ff59"
	j10Val = "bb7f9cac5aa8b72c02b5daacc2771abe74e72604612295eca2ce18363ae9a927"
)

func natR(t testing.TB, g *Group, s string) *bigmod.Nat {
	n, err := bigmod.NewNat().SetBytes(unhex(t, s), g.r)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAnnexJ10HuntAndPeck runs the standard's hunting-and-pecking vector
// end to end: PWE, our commit from the given rand and mask, the peer's
// commit, KCK, PMK and PMKID.
func TestAnnexJ10HuntAndPeck(t *testing.T) {
	g, _ := GroupByID(19)
	pwe, err := g.pweHuntAndPeck(j10Addr1, j10Addr2, j10Password, rand.Reader, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(elementBytes(pwe)); got != j10HnPPWE {
		t.Fatalf("PWE %s, want %s", got, j10HnPPWE)
	}
	x, err := g.commitFrom(pwe, natR(t, g, j10Rand), natR(t, g, j10Mask))
	if err != nil {
		t.Fatal(err)
	}
	commit := AppendCommit(nil, 19, nil, x.scalar, x.element, nil, false, false, nil)
	if !bytes.Equal(commit, unhex(t, j10LocalCommit)) {
		t.Fatalf("commit %x\nwant   %s", commit, j10LocalCommit)
	}
	peer, err := ParseCommit(unhex(t, j10PeerCommit), g.primeLen, false)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := g.peerScalar(peer.Scalar)
	if err != nil {
		t.Fatal(err)
	}
	pe, err := g.pointFromElement(peer.Element)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.process(ps, pe, peer.Scalar, peer.Element, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, got, want string }{
		{"KCK", hex.EncodeToString(x.kck), j10KCK},
		{"PMK", hex.EncodeToString(x.pmk[:]), j10PMK},
		{"PMKID", hex.EncodeToString(x.pmkid[:]), j10PMKID},
	} {
		if c.got != c.want {
			t.Errorf("%s %s, want %s", c.name, c.got, c.want)
		}
	}
}

// TestAnnexJ10HashToElement checks the standard's PT (with the password
// identifier) step by step (pwd-seed, u1, u2, P1, P2), then val and the
// PWE it gives for the second pair of addresses, in both orders.
func TestAnnexJ10HashToElement(t *testing.T) {
	g, _ := GroupByID(19)
	seed, _ := hkdf.Extract(sha256.New, append(append([]byte{}, j10Password...), j10PWID...), j10SSID)
	if got := hex.EncodeToString(seed); got != j10Seed {
		t.Fatalf("pwd-seed %s, want %s", got, j10Seed)
	}
	for i, c := range []struct{ info, u, p string }{{"SAE Hash to Element u1 P1", j10U1, j10P1}, {"SAE Hash to Element u2 P2", j10U2, j10P2}} {
		v, _ := hkdf.Expand(sha256.New, seed, c.info, 48)
		u := reduce(v, g.p, g.wideStep)
		if got := hex.EncodeToString(u.Bytes(g.p)); got != c.u {
			t.Fatalf("u%d %s, want %s", i+1, got, c.u)
		}
		p, err := g.sswu(u)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(elementBytes(p)); got != c.p {
			t.Fatalf("P%d %s, want %s", i+1, got, c.p)
		}
	}
	val, err := g.pweVal(j10Addr1b, j10Addr2b)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(val.Bytes(g.r)); got != j10Val {
		t.Fatalf("val %s, want %s", got, j10Val)
	}
	pt, err := g.DerivePT(j10SSID, j10Password, j10PWID)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(pt.Bytes()); got != j10PT {
		t.Fatalf("PT %s, want %s", got, j10PT)
	}
	for _, pair := range [][2]MAC{{j10Addr1b, j10Addr2b}, {j10Addr2b, j10Addr1b}} {
		pwe, err := pt.pwe(pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(elementBytes(pwe)); got != j10H2EPWE {
			t.Fatalf("PWE %s, want %s", got, j10H2EPWE)
		}
	}
}

// TestRFC9380SSWU maps the RFC's u values for P-256 and compares with its
// Q0 and Q1, and their sum with P.
func TestRFC9380SSWU(t *testing.T) {
	g, _ := GroupByID(19)
	f, err := os.Open("testdata/rfc9380-p256-sswu.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 9 {
			t.Fatalf("bad line %q", line)
		}
		var q [2]point
		for i := range 2 {
			u, err := bigmod.NewNat().SetBytes(unhex(t, fs[1+3*i]), g.p)
			if err != nil {
				t.Fatal(err)
			}
			if q[i], err = g.sswu(u); err != nil {
				t.Fatal(err)
			}
			if got, want := hex.EncodeToString(elementBytes(q[i])), fs[2+3*i]+fs[3+3*i]; got != want {
				t.Errorf("%s: Q%d = %s, want %s", fs[0], i, got, want)
			}
		}
		p := g.newPoint()
		p.add(q[0], q[1])
		if got, want := hex.EncodeToString(elementBytes(p)), fs[7]+fs[8]; got != want {
			t.Errorf("%s: P = %s, want %s", fs[0], got, want)
		}
		n++
	}
	if n != 5 {
		t.Fatalf("%d vectors read, want 5", n)
	}
}
