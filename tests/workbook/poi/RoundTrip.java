import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.ss.usermodel.WorkbookFactory;

/**
 * What the clubs' validator does to a workbook, with Apache POI: open it from a stream through
 * WorkbookFactory, ask for a data format and create cell styles and fonts (as its reader does on
 * every open), write the workbook back, and open the written file for the next check. The
 * validator does this five times, then reads the file once more.
 *
 * Usage: java RoundTrip.java IN WORKDIR ROUNDS
 * Prints, as JSON lines, every sheet and every non-blank cell of the file after ROUNDS rewrites:
 *   {"sheet": "TORNEO", "index": 0}
 *   {"sheet": "TORNEO", "row": 1, "col": 3, "type": "STRING", "value": "Circolo"}
 *   {"sheet": "TORNEO", "row": 7, "col": 3, "type": "NUMERIC", "value": 45717.0, "date": true}
 * Exit 0 when every step worked; a failing step prints its exception and exits 1.
 */
public class RoundTrip {
    public static void main(String[] args) throws Exception {
        File current = new File(args[0]);
        File workdir = new File(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String suffix = current.getName().endsWith(".xlsx") ? ".xlsx" : ".xls";
        for (int round = 1; round <= rounds; round++) {
            File next = new File(workdir, "round-" + round + suffix);
            try (InputStream in = new FileInputStream(current); Workbook wb = WorkbookFactory.create(in)) {
                wb.createDataFormat().getFormat("0.000");
                Font font = wb.createFont();
                Font headings = wb.createFont();
                for (int k = 0; k < 4; k++) {  // the validator's reader makes four styles, two fonts
                    CellStyle style = wb.createCellStyle();
                    style.setFont(k == 3 ? headings : font);
                }
                try (OutputStream out = new FileOutputStream(next)) {
                    wb.write(out);
                }
            }
            current = next;
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (InputStream in = new FileInputStream(current); Workbook wb = WorkbookFactory.create(in)) {
            for (int index = 0; index < wb.getNumberOfSheets(); index++) {
                Sheet sheet = wb.getSheetAt(index);
                String name = json(sheet.getSheetName());
                out.println("{\"sheet\": " + name + ", \"index\": " + index + "}");
                for (Row row : sheet) {
                    for (Cell cell : row) {
                        String value = value(cell);
                        if (value == null) {
                            continue;
                        }
                        out.println("{\"sheet\": " + name + ", \"row\": " + row.getRowNum() + ", \"col\": "
                                + cell.getColumnIndex() + ", \"type\": \"" + cell.getCellType() + "\", \"value\": "
                                + value + (cell.getCellType() == CellType.NUMERIC
                                        ? ", \"date\": " + DateUtil.isCellDateFormatted(cell) : "") + "}");
                    }
                }
            }
        }
        out.flush();
    }

    private static String value(Cell cell) {
        switch (cell.getCellType()) {
            case STRING: return json(cell.getStringCellValue());
            case NUMERIC: return json(Double.toString(cell.getNumericCellValue()));
            case BOOLEAN: return Boolean.toString(cell.getBooleanCellValue());
            case FORMULA: return json(cell.getCellFormula());
            case ERROR: return Byte.toString(cell.getErrorCellValue());
            default: return null;
        }
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
