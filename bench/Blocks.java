// bench/Blocks.java — the digests' compression methods called one block at a time, for HotSpot's
// compiled code per CPU (bench/c2code.py).
//
//     java Blocks DIGEST:BLOCK_BYTES... N
//
// For each digest in turn: N MessageDigest.update calls of one block each (DigestBase calls
// implCompress once per block), then the digest, so that the JIT compiles the compression
// method and then runs it block after block.
import java.security.MessageDigest;

public class Blocks {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[a.length - 1]);
        long s = 0;
        for (int d = 0; d < a.length - 1; d++) {
            String[] spec = a[d].split(":");
            MessageDigest md = MessageDigest.getInstance(spec[0]);
            byte[] b = new byte[Integer.parseInt(spec[1])];
            for (int i = 0; i < n; i++) {
                b[0] = (byte) i;
                md.update(b);
            }
            s += md.digest()[0];
        }
        System.out.println(s);
    }
}
