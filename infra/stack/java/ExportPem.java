import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;

/**
 * Writes the key and certificate chain of one entry of a PKCS12 keystore as PEM files: for servers that take only
 * PEM (Neo4j), from the keystore the stack makes with keytool. Run by the JDK's source launcher:
 * java ExportPem.java <keystore> <password> <alias> <private key file> <certificate chain file>
 */
public class ExportPem {
  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  public static void main(String[] args) throws Exception {
    char[] password = args[1].toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (FileInputStream in = new FileInputStream(args[0])) {
      store.load(in, password);
    }
    Key key = store.getKey(args[2], password);
    Files.writeString(Path.of(args[3]), pem("PRIVATE KEY", key.getEncoded()));
    StringBuilder chain = new StringBuilder();
    for (Certificate certificate : store.getCertificateChain(args[2])) {
      chain.append(pem("CERTIFICATE", certificate.getEncoded()));
    }
    Files.writeString(Path.of(args[4]), chain.toString());
  }
}
