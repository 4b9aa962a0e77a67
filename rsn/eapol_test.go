package rsn

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

func TestCaptureFields(t *testing.T) {
	c := loadCapture(t, "hwsim-4way.txt")
	for _, f := range []struct {
		name   string
		info   uint16
		keyLen uint16
		replay uint64
		data   int
	}{
		{"msg1", InfoPairwise | InfoAck | VersionHMACSHA1, 16, 1, 0},
		{"msg2", InfoPairwise | InfoMIC | VersionHMACSHA1, 0, 1, 20},
		{"msg3", InfoPairwise | InfoInstall | InfoAck | InfoMIC | InfoSecure | InfoEncrypted | VersionHMACSHA1, 16, 2, 56},
		{"msg4", InfoPairwise | InfoMIC | InfoSecure | VersionHMACSHA1, 0, 2, 0},
		{"group1", InfoAck | InfoMIC | InfoSecure | InfoEncrypted | VersionHMACSHA1, 16, 3, 32},
		{"group2", InfoMIC | InfoSecure | VersionHMACSHA1, 0, 3, 0},
	} {
		k, err := ParseKeyFrame(c[f.name])
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if k.Info() != f.info || k.KeyLength() != f.keyLen || k.Replay() != f.replay || len(k.KeyData()) != f.data ||
			k.Descriptor() != DescriptorRSN || k.ProtocolVersion() != 2 || k.RSC() != 0 {
			t.Errorf("%s: info %#x len %d replay %d data %d", f.name, k.Info(), k.KeyLength(), k.Replay(), len(k.KeyData()))
		}
	}
}

// TestCaptureMIC: the PTK derived from the passphrase verifies every MIC
// of both captures, and any flipped octet breaks it.
func TestCaptureMIC(t *testing.T) {
	for _, name := range []string{"hwsim-4way.txt", "ap-4way.txt"} {
		c := loadCapture(t, name)
		ptk := c.ptk(t)
		for _, m := range []string{"msg2", "msg3", "msg4", "group1", "group2"} {
			if c[m] == nil {
				continue
			}
			k, _ := ParseKeyFrame(c[m])
			if !VerifyMIC(k, &ptk.KCK) {
				t.Errorf("%s %s: MIC does not verify", name, m)
			}
			for _, off := range []int{0, 5, offReplay + 7, offNonce, offMIC, offMIC + 15, len(k) - 1} {
				bad := bytes.Clone(k)
				bad[off] ^= 0x10
				if VerifyMIC(KeyFrame(bad), &ptk.KCK) {
					t.Errorf("%s %s: octet %d flipped and the MIC still verifies", name, m, off)
				}
			}
		}
	}
}

// TestCaptureKeyData: message 3 carries the beacon's RSNE and the GTK,
// group message 1 the next GTK, padded as hostapd pads.
func TestCaptureKeyData(t *testing.T) {
	c := loadCapture(t, "hwsim-4way.txt")
	ptk := c.ptk(t)
	m3, _ := ParseKeyFrame(c["msg3"])
	plain, err := UnwrapKeyData(nil, &ptk.KEK, m3.KeyData())
	if err != nil {
		t.Fatal(err)
	}
	want := "30140100000fac040100000fac040100000fac020000dd16000fac0101009adad240faa56f322f1553804b451936dd00"
	if hex.EncodeToString(plain) != want {
		t.Fatalf("message 3 key data %x", plain)
	}
	d, err := ParseKeyData(plain)
	if err != nil || hex.EncodeToString(d.RSNE) != want[:44] || !d.HasGTK || d.GTKKeyID != 1 || d.GTKTx ||
		hex.EncodeToString(d.GTK) != "9adad240faa56f322f1553804b451936" || d.HasIGTK || d.HasKeyID {
		t.Fatalf("message 3 KDEs %+v %v", d, err)
	}
	g1, _ := ParseKeyFrame(c["group1"])
	plain, _ = UnwrapKeyData(nil, &ptk.KEK, g1.KeyData())
	d, err = ParseKeyData(plain)
	if err != nil || !d.HasGTK || d.GTKKeyID != 2 || hex.EncodeToString(d.GTK) != "1470b33c6cdb8ab7d4585da882ea582f" {
		t.Fatalf("group message 1 KDEs %+v %v", d, err)
	}
	if _, err := UnwrapKeyData(nil, &ptk.KCK, m3.KeyData()); err == nil {
		t.Fatal("key data unwrapped with the wrong key")
	}
}

// TestEncodeCapture rebuilds hostapd's frames of the capture byte for byte:
// message 1, message 3 (key data padded and wrapped, MIC) and the
// supplicant's message 4 and group message 2.
func TestEncodeCapture(t *testing.T) {
	c := loadCapture(t, "hwsim-4way.txt")
	ptk := c.ptk(t)
	m1, _ := ParseKeyFrame(c["msg1"])
	anonce := m1.Nonce()
	got := AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 2, Info: InfoPairwise | InfoAck | VersionHMACSHA1,
		KeyLength: 16, Replay: 1, Nonce: anonce})
	if !bytes.Equal(got, c["msg1"]) {
		t.Errorf("message 1 %x", got)
	}
	gtk := Key(unhex(t, "9adad240faa56f322f1553804b451936"))
	kd := AppendGTKKDE(unhex(t, "30140100000fac040100000fac040100000fac020000"), 1, false, &gtk)
	wrapped, err := WrapKeyData(nil, &ptk.KEK, kd)
	if err != nil {
		t.Fatal(err)
	}
	m3 := AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 2, Info: InfoPairwise | InfoInstall | InfoAck | InfoMIC |
		InfoSecure | InfoEncrypted | VersionHMACSHA1, KeyLength: 16, Replay: 2, Nonce: anonce, Data: wrapped})
	if err := SetMIC(m3, &ptk.KCK); err != nil || !bytes.Equal(m3, c["msg3"]) {
		t.Errorf("message 3 %x %v", m3, err)
	}
	for _, f := range []struct {
		name string
		info uint16
		rc   uint64
	}{{"msg4", InfoPairwise | InfoMIC | InfoSecure | VersionHMACSHA1, 2}, {"group2", InfoMIC | InfoSecure | VersionHMACSHA1, 3}} {
		m := AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 2, Info: f.info, Replay: f.rc})
		if err := SetMIC(m, &ptk.KCK); err != nil || !bytes.Equal(m, c[f.name]) {
			t.Errorf("%s %x %v", f.name, m, err)
		}
	}
}

// TestCMACMIC: descriptor version 3 uses AES-128-CMAC; the expected MIC was
// computed with Python's cryptography CMAC over the same frame.
func TestCMACMIC(t *testing.T) {
	var kck Key
	for i := range kck {
		kck[i] = byte(i)
	}
	m := AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 2, Info: InfoPairwise | InfoMIC | InfoSecure | VersionAESCMAC, Replay: 2})
	mic, err := ComputeMIC(VersionAESCMAC, &kck, m)
	if err != nil || hex.EncodeToString(mic[:]) != "6b490c39372756f0a5a2522e55fe127a" {
		t.Fatalf("CMAC MIC %x %v", mic, err)
	}
	if err := SetMIC(m, &kck); err != nil || !VerifyMIC(m, &kck) {
		t.Fatal("SetMIC/VerifyMIC with version 3")
	}
	m[offInfo+1] = m[offInfo+1]&^7 | 1 // version 1: HMAC-MD5, refused
	if _, err := ComputeMIC(1, &kck, m); err != ErrDescriptorVersion || VerifyMIC(m, &kck) {
		t.Fatal("descriptor version 1 accepted")
	}
}

func TestParseKeyFrameErrors(t *testing.T) {
	good := loadCapture(t, "hwsim-4way.txt")["msg2"]
	mod := func(f func([]byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrShortKey},
		{"EAP packet", mod(func(b []byte) []byte { b[1] = 0; return b }), ErrNotKey},
		{"body longer than the frame", good[:len(good)-1], ErrShortKey},
		{"body too short for the fields", mod(func(b []byte) []byte { binary.BigEndian.PutUint16(b[2:], 94); return b }), ErrShortKey},
		{"descriptor 1", mod(func(b []byte) []byte { b[4] = 1; return b }), ErrDescriptor},
		{"key data beyond the body", mod(func(b []byte) []byte { binary.BigEndian.PutUint16(b[offDataLen:], 21); return b }), ErrKeyDataLen},
	} {
		if _, err := ParseKeyFrame(c.b); err != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	padded := append(bytes.Clone(good), 0, 0, 0)
	if k, err := ParseKeyFrame(padded); err != nil || len(k) != len(good) {
		t.Errorf("trailing padding: %d %v", len(k), err)
	}
}

func TestWrapKeyDataPadding(t *testing.T) {
	var kek Key
	for n := 0; n <= 40; n++ {
		plain := bytes.Repeat([]byte{0x30}, n)
		w, err := WrapKeyData(nil, &kek, plain)
		if err != nil {
			t.Fatal(err)
		}
		want := max(16, n)
		if want%8 != 0 || n < 16 {
			want = max(16, (n+1+7)&^7)
		}
		if len(w) != want+8 {
			t.Errorf("%d octets wrapped into %d, want %d", n, len(w), want+8)
		}
		back, err := UnwrapKeyData(nil, &kek, w)
		if err != nil || !bytes.Equal(back[:n], plain) {
			t.Fatalf("%d octets: %v", n, err)
		}
		if len(back) > n && (back[n] != 0xdd || !bytes.Equal(back[n+1:], make([]byte, len(back)-n-1))) {
			t.Errorf("%d octets: padding %x", n, back[n:])
		}
	}
}
