package io.loadsmith.tester.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/** Reads the CA certificates of a PEM file ({@code target.tls.ca_file}). */
public final class PemCertificates {

    private PemCertificates() {
    }

    /**
     * The X.509 certificates in a PEM file, in order.
     *
     * @throws IOException when the file cannot be read, holds no certificate or a malformed one (the message
     *                     says which, without the path)
     */
    public static List<X509Certificate> read(Path file) throws IOException {
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) c);
            }
        } catch (CertificateException e) {
            throw new IOException("is not a PEM file of certificates (" + e.getMessage() + ")", e);
        }
        if (certificates.isEmpty()) {
            throw new IOException("holds no certificate (expected -----BEGIN CERTIFICATE----- blocks)");
        }
        return certificates;
    }

    /** A trust store of the certificates in a PEM file. */
    public static KeyStore trustStore(Path file) throws IOException {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : read(file)) {
                store.setCertificateEntry("ca-" + i++, c);
            }
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make a trust store of it (" + e.getMessage() + ")", e);
        }
    }
}
