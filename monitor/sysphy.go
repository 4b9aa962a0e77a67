package monitor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// SysPHY reads what sysfs tells of a phy without opening it: its name,
// its permanent address and its driver, for checking a configuration's
// BSSIDs before bring-up (airqd -check-config). phy names the wiphy; when
// it is "", iface names a wireless interface of it. The driver is "" when
// sysfs does not say.
func SysPHY(phy, iface string) (nl80211.PHY, string, error) {
	return sysPHY("/sys/class", phy, iface)
}

// sysPHY is SysPHY on the sysfs classes under root.
func sysPHY(root, phy, iface string) (nl80211.PHY, string, error) {
	dir := filepath.Join(root, "ieee80211", phy)
	if phy == "" {
		if iface == "" {
			return nl80211.PHY{}, "", fmt.Errorf("no phy named (-phy, or interface=)")
		}
		dir = filepath.Join(root, "net", iface, "phy80211")
	}
	b, err := os.ReadFile(filepath.Join(dir, "macaddress"))
	if err != nil {
		return nl80211.PHY{}, "", err
	}
	addr, err := ieee80211.ParseMAC(strings.TrimSpace(string(b)))
	if err != nil {
		return nl80211.PHY{}, "", fmt.Errorf("%s: %w", filepath.Join(dir, "macaddress"), err)
	}
	p := nl80211.PHY{Name: phy, PermAddr: addr}
	if b, err := os.ReadFile(filepath.Join(dir, "name")); err == nil {
		p.Name = strings.TrimSpace(string(b))
	}
	driver := ""
	if t, err := os.Readlink(filepath.Join(dir, "device", "driver")); err == nil {
		driver = filepath.Base(t)
	}
	return p, driver, nil
}
