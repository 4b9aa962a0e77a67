package rsn

import "strconv"

// Cipher is a cipher suite selector, its four octets (OUI and type) read
// big-endian: 00-0F-AC:4 is 0x000fac04.
type Cipher uint32

// AKM is an authentication and key management suite selector, read like
// Cipher.
type AKM uint32

// Cipher suites (802.11-2020 Table 9-149).
const (
	CipherUseGroup       Cipher = 0x000fac00
	CipherWEP40          Cipher = 0x000fac01
	CipherTKIP           Cipher = 0x000fac02
	CipherCCMP           Cipher = 0x000fac04 // CCMP-128
	CipherWEP104         Cipher = 0x000fac05
	CipherBIPCMAC128     Cipher = 0x000fac06
	CipherNoGroupTraffic Cipher = 0x000fac07
	CipherGCMP128        Cipher = 0x000fac08
	CipherGCMP256        Cipher = 0x000fac09
	CipherCCMP256        Cipher = 0x000fac0a
	CipherBIPGMAC128     Cipher = 0x000fac0b
	CipherBIPGMAC256     Cipher = 0x000fac0c
	CipherBIPCMAC256     Cipher = 0x000fac0d
)

// AKM suites (802.11-2020 Table 9-151).
const (
	AKM8021X       AKM = 0x000fac01
	AKMPSK         AKM = 0x000fac02
	AKMFT8021X     AKM = 0x000fac03
	AKMFTPSK       AKM = 0x000fac04
	AKM8021XSHA256 AKM = 0x000fac05
	AKMPSKSHA256   AKM = 0x000fac06
	AKMSAE         AKM = 0x000fac08
	AKMFTSAE       AKM = 0x000fac09
	AKMSuiteB      AKM = 0x000fac0b
	AKMSuiteB192   AKM = 0x000fac0c
	AKMOWE         AKM = 0x000fac12
)

var cipherNames = map[Cipher]string{
	CipherUseGroup: "USE-GROUP", CipherWEP40: "WEP-40", CipherTKIP: "TKIP", CipherCCMP: "CCMP",
	CipherWEP104: "WEP-104", CipherBIPCMAC128: "AES-128-CMAC", CipherNoGroupTraffic: "GTK_NOT_USED",
	CipherGCMP128: "GCMP", CipherGCMP256: "GCMP-256", CipherCCMP256: "CCMP-256",
	CipherBIPGMAC128: "BIP-GMAC-128", CipherBIPGMAC256: "BIP-GMAC-256", CipherBIPCMAC256: "BIP-CMAC-256",
}

var akmNames = map[AKM]string{
	AKM8021X: "WPA-EAP", AKMPSK: "WPA-PSK", AKMFT8021X: "FT-EAP", AKMFTPSK: "FT-PSK",
	AKM8021XSHA256: "WPA-EAP-SHA256", AKMPSKSHA256: "WPA-PSK-SHA256", AKMSAE: "SAE", AKMFTSAE: "FT-SAE",
	AKMSuiteB: "WPA-EAP-SUITE-B", AKMSuiteB192: "WPA-EAP-SUITE-B-192", AKMOWE: "OWE",
}

// String returns hostapd's name for the suite (its rsn_pairwise and
// group_mgmt_cipher spelling), or the selector in 00-0f-ac:N form.
func (c Cipher) String() string {
	if n, ok := cipherNames[c]; ok {
		return n
	}
	return selectorString(uint32(c))
}

// String returns hostapd's wpa_key_mgmt name, or the selector.
func (a AKM) String() string {
	if n, ok := akmNames[a]; ok {
		return n
	}
	return selectorString(uint32(a))
}

func selectorString(s uint32) string {
	b := make([]byte, 0, 16)
	for i := 3; i >= 1; i-- {
		o := byte(s >> (8 * i))
		b = append(b, "0123456789abcdef"[o>>4], "0123456789abcdef"[o&15])
		if i > 1 {
			b = append(b, '-')
		}
	}
	return string(b) + ":" + strconv.Itoa(int(byte(s)))
}

// ParseCipher returns the cipher suite hostapd names n (rsn_pairwise,
// group_mgmt_cipher).
func ParseCipher(n string) (Cipher, bool) {
	for c, name := range cipherNames {
		if name == n {
			return c, true
		}
	}
	return 0, false
}

// ParseAKM returns the AKM suite hostapd names n (wpa_key_mgmt).
func ParseAKM(n string) (AKM, bool) {
	for a, name := range akmNames {
		if name == n {
			return a, true
		}
	}
	return 0, false
}

// UsesSHA256 reports whether the AKM derives keys with KDF-SHA256 and
// protects EAPOL-Key frames with AES-128-CMAC: descriptor version 3 for
// the SHA-256 AKMs, the AKM-defined version 0 for SAE (hostapd's
// wpa_key_mgmt_sha256).
func (a AKM) UsesSHA256() bool { return a == AKM8021XSHA256 || a == AKMPSKSHA256 || a == AKMSAE }

// validGroup is hostapd's wpa_cipher_valid_group: a pairwise-capable
// cipher or "no group traffic".
func validGroup(c Cipher) bool {
	switch c {
	case CipherCCMP, CipherGCMP128, CipherCCMP256, CipherGCMP256, CipherTKIP, CipherNoGroupTraffic:
		return true
	}
	return false
}

// validGroupMgmt is hostapd's wpa_cipher_valid_mgmt_group.
func validGroupMgmt(c Cipher) bool {
	switch c {
	case CipherNoGroupTraffic, CipherBIPCMAC128, CipherBIPGMAC128, CipherBIPGMAC256, CipherBIPCMAC256:
		return true
	}
	return false
}
