package integration

import (
	"strings"
	"testing"
)

// TestDockerHost: a local engine's ports are published on, and reached at,
// the loopback interface; a remote engine's (DOCKER_HOST tcp://) at its host.
func TestDockerHost(t *testing.T) {
	for _, c := range []struct{ dockerHost, host, publish string }{
		{"", "127.0.0.1", "127.0.0.1::8000"},
		{"unix:///var/run/docker.sock", "127.0.0.1", "127.0.0.1::8000"},
		{"tcp://10.1.2.3:2376", "10.1.2.3", "8000"},
		{"tcp://[::1]:2375", "::1", "8000"},
	} {
		t.Setenv("DOCKER_HOST", c.dockerHost)
		if host, publish := dockerHost(); host != c.host || publish != c.publish {
			t.Errorf("DOCKER_HOST=%q: dockerHost() = %q, %q, want %q, %q", c.dockerHost, host, publish, c.host, c.publish)
		}
	}
}

// TestHintsAreForAUser: what the harness tells a user to do names nothing
// that only keyfirst's own checkout has (make, a path inside it); the
// build script is reached in keyfirst's module, from any module that
// requires it (examples/harness runs that command in a fresh module).
func TestHintsAreForAUser(t *testing.T) {
	for name, hint := range map[string]string{"fixHint": fixHint, "imageHint": imageHint} {
		for _, not := range []string{"make ", "make test", `"make`} {
			if strings.Contains(hint, not) {
				t.Errorf("%s says %q:\n%s", name, not, hint)
			}
		}
		if rest := strings.ReplaceAll(hint, buildScript, ""); strings.Contains(rest, "localimage") {
			t.Errorf("%s names the build script by a path of keyfirst's checkout:\n%s", name, hint)
		}
	}
	if !strings.Contains(imageHint, buildScript) || !strings.Contains(buildScript, `go list -m -f '{{.Dir}}' github.com/keyfirst/keyfirst`) {
		t.Errorf("imageHint does not give the build script in keyfirst's module:\n%s", imageHint)
	}
	if !strings.Contains(fixHint, EnvEndpoint+"=http://localhost:8000") || !strings.Contains(fixHint, "docker run --rm -p 8000:8000 "+DefaultImage) {
		t.Errorf("fixHint does not say how to point the tests at DynamoDB Local or start one:\n%s", fixHint)
	}
}
