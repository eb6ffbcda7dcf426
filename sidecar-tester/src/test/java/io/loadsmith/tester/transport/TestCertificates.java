package io.loadsmith.tester.transport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A self-signed certificate for localhost and 127.0.0.1, made at test time with the JDK's keytool. */
public final class TestCertificates {

    public static final String PASSWORD = "changeit";

    /**
     * @param keyStore a PKCS12 key store with the key and certificate (alias {@code server}, password {@link #PASSWORD})
     * @param pem      the certificate alone, PEM
     */
    public record Made(Path keyStore, Path pem) {
    }

    private TestCertificates() {
    }

    /** Makes a key store and a PEM of its certificate in dir. */
    public static Made make(Path dir) throws IOException, InterruptedException {
        Path keyStore = dir.resolve("server.p12");
        Path pem = dir.resolve("server.pem");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", keyStore.toString(),
                "-storepass", PASSWORD, "-file", pem.toString());
        return new Made(keyStore, pem);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("keytool did not finish within 60 s");
        }
        String output = new String(process.getInputStream().readAllBytes());
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output);
        }
    }
}
