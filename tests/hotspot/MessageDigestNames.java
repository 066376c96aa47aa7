/*
 * tests/hotspot/MessageDigestNames.java — JDK 25's answers for minivm's MessageDigest.getInstance
 * (vm/lib/MessageDigest.mva): which digest each name gives, as the table
 * tests/hotspot/message_digest_names.txt holds and tests/test_hotspot_library.c replays on minivm.
 *
 *     java MessageDigestNames.java
 *
 * The names: every digest of the SUN provider by its standard name, its aliases and its OIDs
 * (bare and after "OID."), each as given, in lower case and in mixed case; then each with the
 * letters outside ASCII whose Locale.ENGLISH upper case is one ASCII letter (U+017F long s,
 * U+0131 dotless i) put in for the letters they become; then near misses (blanks, a doubled or
 * missing prefix, a wrong length, look-alike characters, and the other letters whose upper case
 * is ASCII, U+00DF sharp s and the ligatures U+FB00 .. U+FB06, which become two or three letters
 * that no name has). One line per name:
 *
 *     NAME | STANDARD LENGTH        or        NAME | -
 *
 * NAME in UTF-8 with every byte outside printable ASCII, and '\', ' ' and '|', written \xHH;
 * STANDARD the SUN provider's standard name for it (Provider.getService's algorithm) and LENGTH
 * the digest's length, or "-" when MessageDigest.getInstance throws NoSuchAlgorithmException.
 */
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

public class MessageDigestNames {
    static String escape(String name) {
        StringBuilder sb = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c > 0x20 && c < 0x7f && c != '\\' && c != '|')
                sb.append((char) c);
            else
                sb.append(String.format("\\x%02x", c));
        }
        return sb.toString();
    }

    /* name with each letter that a letter outside ASCII folds to (Locale.ENGLISH) replaced by it, all
       of them and the first */
    static void folded(Set<String> out, String name) {
        String[][] folds = {{"S", "\u017f"}, {"s", "\u017f"}, {"I", "\u0131"}, {"i", "\u0131"}};
        for (String[] f : folds) {
            if (name.contains(f[0])) {
                out.add(name.replace(f[0], f[1]));
                out.add(name.replaceFirst(f[0], f[1]));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Provider sun = Security.getProvider("SUN");
        List<String> names = new ArrayList<>();
        for (Provider.Service s : sun.getServices())
            if (s.getType().equals("MessageDigest"))
                names.add(s.getAlgorithm());
        names.sort(null);
        Set<String> all = new LinkedHashSet<>();
        List<String> spellings = new ArrayList<>();
        for (String n : names) {
            Provider.Service s = sun.getService("MessageDigest", n);
            spellings.add(n);
            // the aliases: Provider.Service keeps them private; the SUN provider's are KnownOIDs' (the
            // OID, "OID." and the OID, the names below) and the SHA-2 names without the dash
            for (String a : new String[]{"SHA", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512/224",
                                         "SHA512/256", "SHAKE128", "SHAKE256"})
                if (sun.getService("MessageDigest", a) == s && !spellings.contains(a))
                    spellings.add(a);
        }
        String[] oids = {"1.2.840.113549.2.2", "1.2.840.113549.2.5", "1.3.14.3.2.26", "2.16.840.1.101.3.4.2.1",
                         "2.16.840.1.101.3.4.2.2", "2.16.840.1.101.3.4.2.3", "2.16.840.1.101.3.4.2.4",
                         "2.16.840.1.101.3.4.2.5", "2.16.840.1.101.3.4.2.6", "2.16.840.1.101.3.4.2.7",
                         "2.16.840.1.101.3.4.2.8", "2.16.840.1.101.3.4.2.9", "2.16.840.1.101.3.4.2.10",
                         "2.16.840.1.101.3.4.2.11", "2.16.840.1.101.3.4.2.12", "2.16.840.1.101.3.4.2.13",
                         "2.16.840.1.101.3.4.2.0"};
        for (String o : oids) {
            spellings.add(o);
            spellings.add("OID." + o);
        }
        for (String n : spellings) {
            all.add(n);
            all.add(n.toLowerCase(Locale.ROOT));
            StringBuilder mixed = new StringBuilder();
            for (int i = 0; i < n.length(); i++)
                mixed.append(i % 2 == 0 ? Character.toLowerCase(n.charAt(i)) : n.charAt(i));
            all.add(mixed.toString());
        }
        for (String n : spellings) {
            folded(all, n);
            folded(all, n.toLowerCase(Locale.ROOT));
        }
        String[] misses = {"", " ", "SHA-256 ", " SHA-256", "SHA 256", "SHA--256", "SHA-2566", "SHA-25", "SHA3256",
                           "OID.", "OID", "OID.OID.1.3.14.3.2.26", "OID.SHA-1", "OID.SHA1", "1.3.14.3.2.26.",
                           ".1.3.14.3.2.26", "SHA-512/384", "SHA512/384", "SHAKE", "SHAKE128-512", "SHAKE256-256",
                           "SHAKE128-128", "SHA3", "SHA3-", "MD4", "MD", "SHA-256-JDK15", "SHA-1\u0000",
                           "SHA-256\u00c5", "\u00c5HA-256", "\u017e" + "ha-256", "\u0130D.1.3.14.3.2.26",
                           "K\u212a", "\u212aECCAK", "SHA\u2011256", "ＳＨＡ-256", "SHA-256\ufeff",
                           "\u00dfha-256", "sha-256\u00df", "\u00df", "\ufb00", "\ufb01", "\ufb02", "\ufb03",
                           "\ufb04", "\ufb05ha-256", "\ufb06ha-256", "o\ufb01d.1.3.14.3.2.26"};
        for (String m : misses)
            all.add(m);
        System.out.println("# JDK 25's MessageDigest.getInstance, by tests/hotspot/MessageDigestNames.java");
        System.out.println("# " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        System.out.println("# " + all.size() + " names: NAME | STANDARD LENGTH (or -)");
        for (String n : all) {
            String answer;
            try {
                MessageDigest md = MessageDigest.getInstance(n);
                Provider.Service s = md.getProvider().getService("MessageDigest", n);
                answer = (s != null ? s.getAlgorithm() : "?") + " " + md.getDigestLength();
            } catch (NoSuchAlgorithmException e) {
                answer = "-";
            }
            System.out.println(escape(n) + " | " + answer);
        }
    }
}
