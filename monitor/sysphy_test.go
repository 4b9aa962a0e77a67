package monitor

import (
	"os"
	"path/filepath"
	"testing"
)

// sysPHY reads a phy's address and driver as sysfs lays them out: by the
// phy's name, or through a wireless interface's phy80211 link.
func TestSysPHY(t *testing.T) {
	root := t.TempDir()
	phy := filepath.Join(root, "ieee80211", "phy3")
	mkdir(t, filepath.Join(phy, "device"), filepath.Join(root, "bus", "pci", "drivers", "ath9k"), filepath.Join(root, "net", "wlan0"))
	write(t, filepath.Join(phy, "macaddress"), "00:0c:42:10:20:31\n")
	write(t, filepath.Join(phy, "name"), "phy3\n")
	symlink(t, filepath.Join(root, "bus", "pci", "drivers", "ath9k"), filepath.Join(phy, "device", "driver"))
	symlink(t, phy, filepath.Join(root, "net", "wlan0", "phy80211"))
	for _, tc := range []struct{ phy, iface string }{{"phy3", ""}, {"", "wlan0"}} {
		p, driver, err := sysPHY(root, tc.phy, tc.iface)
		if err != nil || p.Name != "phy3" || p.PermAddr != [6]byte{0x00, 0x0c, 0x42, 0x10, 0x20, 0x31} || driver != "ath9k" {
			t.Errorf("%+v: %s %v driver %q, %v", tc, p.Name, p.PermAddr, driver, err)
		}
	}
	if _, _, err := sysPHY(root, "phy9", ""); err == nil {
		t.Error("a phy sysfs does not list was read")
	}
	if _, _, err := sysPHY(root, "", ""); err == nil {
		t.Error("no phy named, and no error")
	}
}

func mkdir(t *testing.T, dirs ...string) {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, path, text string) {
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}
